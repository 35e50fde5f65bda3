// RelctlCore
