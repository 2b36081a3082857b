// A Go program on the generated SDK (sdks/go/aicp), driven by Go's Automation
// API (an inline program: no Go language host needed).
//
//	go run . up|preview|refresh|destroy
//
// The stack is `ci` of project aicp-go in the backend PULUMI_BACKEND_URL, with
// PULUMI_HOME holding the installed provider plugin. The program reads
// GROUP_DESCRIPTION and STOP_TIME, so a test can change it between runs. The
// last line printed is `RESULT <json>`: the outputs and the resource changes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/pulumi-aicp/pulumi-aicp/sdks/go/aicp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func program(ctx *pulumi.Context) error {
	description := os.Getenv("GROUP_DESCRIPTION")
	if description == "" {
		description = "first"
	}
	group, err := aicp.NewResourceGroup(ctx, "team", &aicp.ResourceGroupArgs{
		SkuId:       pulumi.String("sku-1"),
		PodTypes:    aicp.ResourceGroupPodTypeArray{aicp.ResourceGroupPodTypeJob, aicp.ResourceGroupPodTypeInstance},
		Description: pulumi.String(description),
	})
	if err != nil {
		return err
	}
	args := &aicp.NotebookArgs{
		ChargeMode:   aicp.NotebookChargeModeElastic,
		Duration:     pulumi.Int(3600),
		Image:        pulumi.String("jupyter:1"),
		ImageType:    aicp.NotebookImageTypeOfficial,
		ServerType:   aicp.NotebookServerTypeJupyter,
		ReplicaSpecs: &aicp.ReplicaSpecsArgs{Specs: pulumi.StringPtr("sku-1"), CustomCpu: pulumi.IntPtr(2)},
	}
	if stop := os.Getenv("STOP_TIME"); stop != "" {
		args.StopTime = pulumi.StringPtr(stop)
	}
	notebook, err := aicp.NewNotebook(ctx, "nb", args)
	if err != nil {
		return err
	}
	limit := 3
	templates, err := aicp.GetResourceTemplates(ctx, &aicp.GetResourceTemplatesArgs{Limit: &limit})
	if err != nil {
		return err
	}
	pods := aicp.GetTrainingPodsOutput(ctx, aicp.GetTrainingPodsOutputArgs{Endpoint: pulumi.String("tfjobs"), TrainName: pulumi.String("auto-job")})
	metrics := aicp.GetNotebookDiskMetricsOutput(ctx, aicp.GetNotebookDiskMetricsOutputArgs{Uuid: notebook.Uuid})
	ctx.Export("rgId", group.RgId)
	ctx.Export("groupName", group.Name)
	ctx.Export("uuid", notebook.Uuid)
	ctx.Export("status", notebook.Status)
	ctx.Export("templates", pulumi.Int(len(templates.Templates)))
	ctx.Export("pods", pods.Pods().ApplyT(func(ps []aicp.TrainingPod) []string {
		names := []string{}
		for _, p := range ps {
			if p.Metadata != nil && p.Metadata.Name != nil {
				names = append(names, *p.Metadata.Name)
			}
		}
		sort.Strings(names)
		return names
	}))
	ctx.Export("metrics", metrics.Metrics().ApplyT(func(ms []aicp.DiskMetric) []string {
		names := []string{}
		for _, m := range ms {
			if m.MetricName != nil {
				names = append(names, *m.MetricName)
			}
		}
		sort.Strings(names)
		return names
	}))
	return nil
}

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(step string) error {
	ctx := context.Background()
	wd, _ := os.Getwd()
	project := workspace.Project{Name: "aicp-go", Runtime: workspace.NewProjectRuntimeInfo("go", nil), Backend: &workspace.ProjectBackend{URL: os.Getenv("PULUMI_BACKEND_URL")}}
	stack, err := auto.UpsertStackInlineSource(ctx, "ci", "aicp-go", program, auto.WorkDir(wd), auto.PulumiHome(os.Getenv("PULUMI_HOME")), auto.Project(project),
		auto.EnvVars(map[string]string{"PULUMI_CONFIG_PASSPHRASE": os.Getenv("PULUMI_CONFIG_PASSPHRASE")}))
	if err != nil {
		return err
	}
	result := map[string]any{}
	switch step {
	case "up":
		up, err := stack.Up(ctx, optup.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		outputs := map[string]any{}
		for k, v := range up.Outputs {
			outputs[k] = v.Value
		}
		result["outputs"], result["changes"] = outputs, up.Summary.ResourceChanges
	case "preview":
		preview, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		result["changes"] = preview.ChangeSummary
	case "refresh":
		refresh, err := stack.Refresh(ctx, optrefresh.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		result["changes"] = refresh.Summary.ResourceChanges
	case "destroy":
		destroy, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		result["changes"] = destroy.Summary.ResourceChanges
	default:
		return fmt.Errorf("unknown step %q: up, preview, refresh or destroy", step)
	}
	text, err := json.Marshal(result)
	if err != nil {
		return err
	}
	fmt.Println("RESULT " + string(text))
	return nil
}
