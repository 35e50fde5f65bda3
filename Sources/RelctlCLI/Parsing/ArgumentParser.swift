/// Parses one command's arguments against its `CommandSpec`: options anywhere, `--name=value` or `--name value`,
/// `--` before positionals that start with `-`.
enum ArgumentParser {
    static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, usage: command.usage) }
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { parsed.wantsHelp = true; continue }
            var name = argument
            var inlineValue: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            guard let spec = command.options.first(where: { $0.name == name }) else {
                let known = command.options.map(\.name) + ["--help"]
                throw fail("unknown option '\(name)' for 'relctl \(command.name)'" + Spelling.suggestion(name, among: known))
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw fail("option '\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if spec.optionalValue, inlineValue == nil, !(i < arguments.count && !arguments[i].hasPrefix("-")) {
                parsed.flags.insert(name)
                continue
            }
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count, !arguments[i].hasPrefix("--") else {
                    throw fail("option '\(name)' needs a value <\(valueName)>")
                }
                value = arguments[i]
                i += 1
            }
            if value.isEmpty { throw fail("option '\(name)' needs a non-empty value") }
            if spec.repeatable {
                parsed.lists[name, default: []].append(value)
                parsed.values[name] = value
                if spec.optionalValue { parsed.flags.insert(name) }
                continue
            }
            if parsed.values[name] != nil { throw fail("option '\(name)' given twice") }
            parsed.values[name] = value
        }
        if parsed.wantsHelp { return parsed }
        let required = command.positionals.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            throw fail("missing argument <\(command.positionals[parsed.positionals.count].name)>")
        }
        if parsed.positionals.count > command.positionals.count {
            throw fail("unexpected argument '\(parsed.positionals[command.positionals.count])'")
        }
        return parsed
    }
}
