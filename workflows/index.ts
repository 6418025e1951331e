// The worker's workflowsPath: every workflow type the platform runs is exported from here.
// Workflows import activity types only (see DESIGN.md).
export {};
