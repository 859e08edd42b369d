package fingerprint

import (
	"math"
	"math/rand"
	"strings"
	"testing"
)

// randomValue makes values of every kind the canonicaliser meets: the ones the fast path writes and the ones it
// hands back to emit (fractions, unsafe integers, Inexact, a lone surrogate, unsupported Go types).
func randomValue(rng *rand.Rand, depth int) any {
	kinds := 10
	if depth >= 4 {
		kinds = 8
	}
	switch rng.Intn(kinds) {
	case 0:
		return randomText(rng)
	case 1:
		return []int64{0, -1, 7, MaxSafeInteger, -MaxSafeInteger, MaxSafeInteger + 1}[rng.Intn(6)]
	case 2:
		return []float64{1, math.Copysign(0, -1), 2.5, 1e20, math.NaN()}[rng.Intn(5)]
	case 3:
		return rng.Intn(2) == 0
	case 4:
		return nil
	case 5:
		return Inexact{Literal: "0.5", Fraction: true}
	case 6:
		return []int{3, MaxSafeInteger + 1}[rng.Intn(2)]
	case 7:
		if rng.Intn(8) == 0 {
			return struct{}{}
		}
		return randomText(rng)
	case 8:
		items := make([]any, rng.Intn(4))
		for i := range items {
			items[i] = randomValue(rng, depth+1)
		}
		return items
	default:
		members := map[string]any{}
		for i := rng.Intn(4); i > 0; i-- {
			members[randomText(rng)] = randomValue(rng, depth+1)
		}
		return members
	}
}

func randomText(rng *rand.Rand) string {
	alphabet := []string{"a", "\"", "\\", "\n", "\x01", "\u2028", "é", "漢", "\U0001F600", "\xed\xa0\x80", "\x7f"}
	var b strings.Builder
	for i := rng.Intn(4); i > 0; i-- {
		b.WriteString(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

// The fast path writes what emit writes, and refuses exactly what emit refuses (whose error then names the path).
func TestTheFastPathWritesWhatTheWalkWrites(t *testing.T) {
	rng := rand.New(rand.NewSource(20261206))
	fast := 0
	for i := 0; i < 5000; i++ {
		v := randomValue(rng, 0)
		var walked strings.Builder
		err := emit(&walked, v, "$", 0)
		out, ok := appendCanonical(nil, v, 0)
		if (err == nil) != ok {
			t.Fatalf("%#v: emit error %v, fast path ok %v", v, err, ok)
		}
		if err != nil {
			if _, again := CanonicalAt(v, "$", 0); again == nil || again.Error() != err.Error() {
				t.Fatalf("%#v: CanonicalAt %v, emit %v", v, again, err)
			}
			continue
		}
		fast++
		if string(out) != walked.String() {
			t.Fatalf("%#v: fast %q, walk %q", v, out, walked.String())
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d values took the fast path", fast)
	}
}
