/// Text from outside relctl (commit subjects and bodies, tag names, paths, config keys, version-file contents) made
/// safe for a terminal or a CI log: a control character could otherwise set the window title (`ESC ] 0;… BEL`),
/// move the cursor or start a CSI sequence (U+009B) when relctl prints it.
///
/// Escaped the way git's `core.quotePath` shows a byte: a backslash and three octal digits per UTF-8 byte —
/// `ESC` is `\033`, `BEL` `\007`, `DEL` `\177`, U+009B (two bytes in UTF-8) `\302\233`. Every C0 control
/// character is escaped except a line feed and a tab, and a carriage return only when a line feed follows it (a
/// CRLF line ending moves the cursor nowhere a line feed would not); so are DEL and the C1 controls
/// U+0080–U+009F. A backslash already in the text stays as it is (a regex pattern in a message stays readable).
package enum TerminalText {
    /// `text` with its control characters escaped; `text` itself (no copy) when it holds none.
    package static func escaped(_ text: String) -> String {
        // Byte-wise first: a C0 control but LF and tab, DEL or a C1 control (C2 80…C2 9F in UTF-8, and C2 is only
        // ever a lead byte) is needed for anything to change; a scan of the scalars costs five times as much.
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F || $0 == 0xC2 }),
              text.unicodeScalars.contains(where: needsCheck) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
                out.append(scalar)
            } else if isEscaped(scalar) {
                for byte in String(scalar).utf8 { out.append(contentsOf: octal(byte).unicodeScalars) }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `scalar` is shown escaped (a lone carriage return is; one before a line feed is not).
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 0x0A || v == 0x09 { return false }
        return v < 0x20 || (v >= 0x7F && v <= 0x9F)
    }

    private static func needsCheck(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v == 0x0D || isEscaped(scalar)
    }

    /// `\ooo` for one byte.
    private static func octal(_ byte: UInt8) -> String {
        "\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7)
    }
}
