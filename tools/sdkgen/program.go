package main

// The nodejs language host's GenerateProgram, as a process: what `pulumi
// import` asks of a TypeScript project's host to write the code of an imported
// resource. The real host (pulumi-language-nodejs) is not served by the Go
// module proxy; tools/language-host, which stands in for it, pipes the RPC's
// request here and returns the response, both as protobuf bytes.

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
)

// generateNodejsProgram reads a GenerateProgramRequest from in and writes the
// GenerateProgramResponse to out. It binds the program's PCL against the
// schemas the engine serves at the request's loader target, as the real host
// does, then writes TypeScript with Pulumi's nodejs program generator.
func generateNodejsProgram(in io.Reader, out io.Writer) error {
	raw, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	var req pulumirpc.GenerateProgramRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		return err
	}
	if req.LoaderTarget == "" {
		return errors.New("the request names no schema loader")
	}
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for path, text := range req.Source {
		if err := parser.ParseFile(strings.NewReader(text), path); err != nil {
			return err
		}
	}
	resp := &pulumirpc.GenerateProgramResponse{}
	if parser.Diagnostics.HasErrors() {
		resp.Diagnostics = plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)
		return write(out, resp)
	}

	// Not strict for `pulumi import`: its code may name a parent or provider
	// the program it is pasted into defines.
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgramWithContext(context.Background(), parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return err
	}
	resp.Diagnostics = plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return write(out, resp)
	}
	files, diags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return err
	}
	resp.Diagnostics = append(resp.Diagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	resp.Source = files
	return write(out, resp)
}

func write(out io.Writer, resp *pulumirpc.GenerateProgramResponse) error {
	raw, err := proto.Marshal(resp)
	if err != nil {
		return err
	}
	_, err = out.Write(raw)
	return err
}

// runProgramMode serves `sdkgen -program nodejs` on stdin and stdout.
func runProgramMode(lang string) {
	if lang != "nodejs" {
		fail(errors.New("-program supports nodejs only (the YAML, Python and Go hosts write their own)"))
	}
	if err := generateNodejsProgram(os.Stdin, os.Stdout); err != nil {
		fail(err)
	}
}
