module github.com/stratoscli/stratos/stratos-run

go 1.26.8

require github.com/stratoscli/stratos/shared v0.1.0

require (
	github.com/hashicorp/go-hclog v1.6.3
	github.com/urfave/cli/v3 v3.14.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/fatih/color v1.13.0 // indirect
	github.com/gofrs/flock v0.13.2 // indirect
	github.com/mattn/go-colorable v0.1.12 // indirect
	github.com/mattn/go-isatty v0.0.14 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)
