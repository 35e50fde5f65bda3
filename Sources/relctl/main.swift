import Foundation
import RelctlCLI

let code = RelctlCLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
