// A resource group and a running CPU notebook on AICP, from Go through the
// provider plugin (sdks/go). Run `go mod tidy` once, then `pulumi up`.
package main

import (
	"github.com/pulumi-aicp/pulumi-aicp/sdks/go/aicp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		team, err := aicp.NewResourceGroup(ctx, "team", &aicp.ResourceGroupArgs{
			SkuId:       pulumi.String("sku-1"),
			PodTypes:    aicp.ResourceGroupPodTypeArray{aicp.ResourceGroupPodTypeInstance},
			Description: pulumi.String("notebooks of the quickstart"),
		})
		if err != nil {
			return err
		}
		research, err := aicp.NewNotebook(ctx, "research", &aicp.NotebookArgs{
			ChargeMode:   aicp.NotebookChargeModeElastic,
			Duration:     pulumi.Int(3600),
			Image:        pulumi.String("jupyter:1"),
			ImageType:    aicp.NotebookImageTypeOfficial,
			ServerType:   aicp.NotebookServerTypeJupyter,
			ReplicaSpecs: &aicp.ReplicaSpecsArgs{Specs: pulumi.String("sku-1"), CustomCpu: pulumi.Int(2)},
		})
		if err != nil {
			return err
		}
		ctx.Export("groupId", team.RgId)
		ctx.Export("notebookUuid", research.Uuid)
		ctx.Export("status", research.Status)
		return nil
	})
}
