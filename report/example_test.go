package report_test

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/benchspec/benchspec/report"
)

// Read a JSON report, as `run --format json` writes it, and print each
// run's score with its error, which counts forks.
func ExampleRead() {
	f, err := os.Open("testdata/readwrite_base.json.golden")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	rep, err := report.Read(f)
	if err != nil {
		log.Fatal(err) // a report that is not what run writes is an error
	}
	fmt.Println(rep.Suite, "complete:", rep.Complete)
	for _, r := range rep.Runs {
		m := r.Primary
		fmt.Printf("%-28s %-6s %8.3f ± %.3f %s (Cnt %d)\n", r.Key, r.Mode, m.Score, m.ScoreError, m.ScoreUnit, m.Count)
	}
	// Output:
	// seeds complete: true
	// counter.Inc1#avgt            avgt     12.041 ± 2.657 ns/op (Cnt 15)
	// sqrt.Sunk#avgt               avgt      2.202 ± 0.324 ns/op (Cnt 15)
	// list.Insert?size=1000#avgt   avgt      0.850 ± 0.183 us/op (Cnt 15)
	// counter.Inc1#thrpt           thrpt    82.745 ± 37.122 ops/us (Cnt 15)
	// log.Classic#sample           sample    3.349 ± 0.132 us/op (Cnt 300)
}

// A run's variance components say how much of its spread comes from the
// process each fork ran in, and how many forks would bring the error
// within ±1 % of the score; Diagnostics (none in this report) would say
// why a number should not be trusted.
func ExampleRun() {
	data, err := os.ReadFile("testdata/readwrite_base.json.golden")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := report.Read(bytes.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Status != report.StatusOK {
			continue // failed and skipped runs have no primary metric
		}
		v := r.Primary.Variance
		needed := "?" // null with fewer than 2 forks
		if v.ForksNeeded != nil {
			needed = fmt.Sprint(*v.ForksNeeded)
		}
		fmt.Printf("%-28s %d forks, %2.0f%% of the variance between forks, %s forks for ±1%%, %d diagnostics\n",
			r.Key, v.Forks, 100*v.BetweenForkShare, needed, len(r.Diagnostics))
	}
	// Output:
	// counter.Inc1#avgt            3 forks, 29% of the variance between forks, 22 forks for ±1%, 0 diagnostics
	// sqrt.Sunk#avgt               3 forks,  8% of the variance between forks, 13 forks for ±1%, 0 diagnostics
	// list.Insert?size=1000#avgt   3 forks,  1% of the variance between forks, 21 forks for ±1%, 0 diagnostics
	// counter.Inc1#thrpt           3 forks, 70% of the variance between forks, 72 forks for ±1%, 0 diagnostics
	// log.Classic#sample           3 forks,  0% of the variance between forks, 5 forks for ±1%, 0 diagnostics
}
