internal import CLibGit2

extension Repository {
    /// The value of a config key (repository, global and system config), or nil.
    package func configValue(_ key: String) -> String? {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, pointer) == 0 else { return nil }
        defer { git_config_free(config) }
        return Self.configString(config, key)
    }

    /// A non-empty string value of `key` in a config snapshot, or nil. The value is copied out of the `git_buf`
    /// before the buffer is disposed.
    static func configString(_ config: OpaquePointer?, _ key: String) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard git_config_get_string_buf(&buffer, config, key) == 0, let ptr = buffer.ptr else { return nil }
        return nonEmpty(String(cString: ptr))
    }
}
