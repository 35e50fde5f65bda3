import RelctlCore

/// `$(NAME)`, `${NAME}` or `$(NAME:modifier)` → NAME; any other value containing `$(`/`${` → the value itself; else nil.
func buildSettingReference(_ value: String) -> String? {
    guard value.contains("$(") || value.contains("${") else { return nil }
    for (open, close) in [("$(", ")"), ("${", "}")] where value.hasPrefix(open) && value.hasSuffix(close) {
        var name = String(value.dropFirst(2).dropLast())
        if let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
        if !name.contains("$") && !name.contains(")") { return name }
    }
    return value
}
