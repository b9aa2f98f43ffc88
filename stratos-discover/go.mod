module github.com/stratoscli/stratos/stratos-discover

go 1.26.8

require github.com/stratoscli/stratos/shared v0.1.0

require github.com/urfave/cli/v3 v3.14.0

require (
	github.com/fatih/color v1.13.0 // indirect
	github.com/gofrs/flock v0.13.2 // indirect
	github.com/hashicorp/go-hclog v1.6.3 // indirect
	github.com/mattn/go-colorable v0.1.12 // indirect
	github.com/mattn/go-isatty v0.0.14 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	golang.org/x/sys v0.49.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
