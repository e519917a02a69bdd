package main

// Shape is called through an interface in virtual.Call.
type Shape interface{ Area() float64 }

type square struct{ side float64 }

func (s square) Area() float64 { return s.side * s.side }

type circle struct{ r float64 }

func (c circle) Area() float64 { return 3.141592653589793 * c.r * c.r }

// shapes is a package variable so the compiler cannot devirtualize calls
// on its elements.
var shapes = []Shape{square{2}, circle{1.5}}

// Counter is implemented three times, identically.
type Counter interface {
	Inc()
	Get() int64
}

type counter1 struct{ n int64 }

func (c *counter1) Inc()       { c.n++ }
func (c *counter1) Get() int64 { return c.n }

type counter2 struct{ n int64 }

func (c *counter2) Inc()       { c.n++ }
func (c *counter2) Get() int64 { return c.n }

type counter3 struct{ n int64 }

func (c *counter3) Inc()       { c.n++ }
func (c *counter3) Get() int64 { return c.n }

// counters is a package variable so that the call sites stay dynamic.
var counters = []func() Counter{
	func() Counter { return &counter1{} },
	func() Counter { return &counter2{} },
	func() Counter { return &counter3{} },
}

func newCounter(i int) Counter { return counters[i]() }
