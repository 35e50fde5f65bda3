/// A positional argument.
struct PositionalSpec: Sendable {
    let name: String
    let optional: Bool
    let help: String
    /// What the shell completion scripts offer for it.
    var completion: ValueCompletion = .none
}
