/// What the parser found.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []
    /// Every value of a repeatable option, in order.
    var lists: [String: [String]] = [:]
    var wantsHelp = false

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name] }
    /// The values of a repeatable option (`--project a --project b`), in order; empty when not given.
    func values(_ name: String) -> [String] { lists[name] ?? [] }
}
