package benchspec_test

import "runtime"

func gomaxprocs() int { return runtime.GOMAXPROCS(0) }
