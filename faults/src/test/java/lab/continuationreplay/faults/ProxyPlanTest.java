package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import lab.continuationreplay.faults.proxy.ProxyPlan;
import lab.continuationreplay.faults.proxy.ProxyPlan.Direction;
import lab.continuationreplay.faults.proxy.ProxyPlan.Fault;
import org.junit.jupiter.api.Test;

class ProxyPlanTest {
    @Test
    void parsesDirectionsFaultsAndDelayAndPrintsBack() {
        ProxyPlan plan = ProxyPlan.parse("up.drop=0.1, both.truncate=0.05,down.duplicate=0.2,delay-ms=75");
        assertEquals(0.1, plan.probabilities().get(Direction.UP).get(Fault.DROP));
        assertEquals(0.05, plan.probabilities().get(Direction.DOWN).get(Fault.TRUNCATE));
        assertEquals(0.2, plan.probabilities().get(Direction.DOWN).get(Fault.DUPLICATE));
        assertEquals(75, plan.delayMillis());
        assertEquals(plan, ProxyPlan.parse(plan.text()));
    }

    @Test
    void theEmptyPlanForwardsEverything() {
        for (String empty : new String[] {"", "none", "  "}) {
            ProxyPlan plan = ProxyPlan.parse(empty);
            assertNull(plan.choose(Direction.UP, new Random(1)));
            assertEquals(ProxyPlan.DEFAULT_DELAY_MS, plan.delayMillis());
        }
    }

    @Test
    void choicesFollowTheSeedAndTheProbabilities() {
        ProxyPlan plan = ProxyPlan.parse("up.drop=0.5,up.reorder=0.5");
        List<Fault> a = new ArrayList<>();
        List<Fault> b = new ArrayList<>();
        Random ra = new Random(3);
        Random rb = new Random(3);
        for (int i = 0; i < 100; i++) {
            a.add(plan.choose(Direction.UP, ra));
            b.add(plan.choose(Direction.UP, rb));
            assertNull(plan.choose(Direction.DOWN, ra));
            plan.choose(Direction.DOWN, rb);
        }
        assertEquals(a, b);
        assertTrue(a.contains(Fault.DROP) && a.contains(Fault.REORDER) && !a.contains(null));
    }

    @Test
    void badPlansAreRefusedWithTheirReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("up.explode=0.1")).getMessage().contains("unknown fault 'explode'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("sideways.drop=0.1")).getMessage().contains("unknown direction"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("drop=0.1")).getMessage().contains("needs a direction"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("up.drop=2")).getMessage().contains("from 0 to 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("up.drop=0.6,up.delay=0.6")).getMessage().contains("more than 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("up.drop")).getMessage().contains("NAME=VALUE"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProxyPlan.parse("delay-ms=-1")).getMessage().contains("delay-ms"));
    }
}
