package plan

// ParallelRuns lets plan_test's tests build a plan on one goroutine.
var ParallelRuns = &parallelRuns
