// Package faulty has benchmarks that go wrong in each way a package
// benchmark's fork must survive.
package faulty
