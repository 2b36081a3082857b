// Builds the Pulumi CLI from the Go module proxy where the usual installers
// cannot download it. The version matches @pulumi/pulumi in package.json.
module aicp.local/tools/pulumi

go 1.26

// Carried over from pulumi/pkg's own go.mod: replace directives of a dependency
// do not apply to the module that requires it.
replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e

require (
	github.com/pulumi/pulumi/pkg/v3 v3.259.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
