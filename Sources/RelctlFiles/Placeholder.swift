// RelctlFiles
