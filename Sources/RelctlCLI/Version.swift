/// relctl's own version; `relctl release` keeps it in sync (a `regex` entry in the project's .relctl.json).
package let relctlVersion = "0.1.0"
