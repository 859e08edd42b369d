package config

import (
	"encoding/hex"
	"testing"

	"lab.continuationreplay/gofixture/internal/ruletable"
)

// verdict is what the shared table says a variable reads as: the string, the seconds, the key as lowercase hex,
// the fault's name or nil for none; or the error.
func verdict(c Config, variable string) any {
	switch variable {
	case ServerDB:
		return c.Database
	case BackendID:
		return c.BackendID
	case Principal:
		return c.Principal
	case ClockEpoch:
		return c.ClockEpoch
	case AuthorityTTL:
		return c.AuthorityTTL
	case ReplayRetentionTTL:
		return c.ReplayRetentionTTL
	case RequestStateTTL:
		return c.RequestStateTTL
	case StateKeyHex:
		return hex.EncodeToString(c.StateKey)
	case FingerprintKeyHex:
		return hex.EncodeToString(c.FingerprintKey)
	case Fault:
		if c.Fault == "" {
			return nil
		}
		return c.Fault
	}
	panic(variable)
}

func TestSharedRuleTable(t *testing.T) {
	table, err := ruletable.Load("trusted-environment.json")
	if err != nil {
		t.Fatal(err)
	}
	base := table.Root["base"].(map[string]any)
	for _, c := range table.Cases {
		env := map[string]string{}
		for k, v := range base {
			env[k] = v.(string)
		}
		variable := c.Row["variable"].(string)
		if unset, _ := c.Row["unset"].(bool); unset {
			delete(env, variable)
		} else {
			env[variable] = c.Row["value"].(string)
		}
		read, err := Read(func(name string) (string, bool) { v, ok := env[name]; return v, ok })
		got := map[string]any{}
		if err != nil {
			got["error"] = err.Error()
		} else {
			got["accepted"] = verdict(read, variable)
		}
		if lang, ok := c.Matches(got); !ok || lang != "*" {
			t.Errorf("%s: got %v, want %v", c.Name, got, c.Expected)
		}
	}
}

// The bridge opens a PostgreSQL ledger itself; with WIRE_LEDGER_URL the fixture needs no WIRE_SERVER_DB.
func TestALedgerURLTakesThePlaceOfTheServerDB(t *testing.T) {
	table, err := ruletable.Load("trusted-environment.json")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for k, v := range table.Root["base"].(map[string]any) {
		env[k] = v.(string)
	}
	delete(env, ServerDB)
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	if _, err := Read(lookup); err == nil || err.Error() != "WIRE_SERVER_DB is required" {
		t.Fatalf("without either: %v", err)
	}
	env[LedgerURL] = "jdbc:postgresql://127.0.0.1:5432/ledgers"
	if c, err := Read(lookup); err != nil || c.Database != "" {
		t.Fatalf("with a ledger URL: %v %q", err, c.Database)
	}
}
