// Pulumi provider for the AICP (CoresHub) AI computing platform: GPU notebooks, resource groups, resource templates, training-job pods and notebook disk metrics.
package aicp
