#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCLI

exit(RelctlCLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))
