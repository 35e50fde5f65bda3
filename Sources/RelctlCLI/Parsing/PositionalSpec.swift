/// A positional argument.
struct PositionalSpec: Sendable {
    let name: String
    let optional: Bool
    let help: String
}
