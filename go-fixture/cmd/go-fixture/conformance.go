package main

import "lab.continuationreplay/gofixture/internal/config"

// conformanceStateTTLVariable is how long the conformance fixtures' states live (whole seconds, default 60), read
// like the other TTLs; unset or empty is the default.
const conformanceStateTTLVariable = "WIRE_CONFORMANCE_STATE_TTL"

func conformanceStateTTL(env config.Lookup) (int64, error) {
	if v, ok := env(conformanceStateTTLVariable); !ok || v == "" {
		return 60, nil
	}
	return config.PositiveSeconds(env, conformanceStateTTLVariable)
}
