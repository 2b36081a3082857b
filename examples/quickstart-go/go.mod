module quickstart-go

go 1.26

require (
	github.com/pulumi-aicp/pulumi-aicp/sdks/go v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
