module github.com/stratoscli/stratos/stratos-discover

go 1.26.8

require github.com/stratoscli/stratos/shared v0.0.0

require github.com/urfave/cli/v3 v3.14.0

replace github.com/stratoscli/stratos/shared => ../shared
