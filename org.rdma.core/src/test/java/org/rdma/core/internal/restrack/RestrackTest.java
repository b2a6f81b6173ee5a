package org.rdma.core.internal.restrack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.runtime.ResourceDTO;

class RestrackTest {
    @Test
    void tracksAddsAndDeletesPerType() {
        Restrack r = new Restrack("mlx4_0");
        Restrack.Entry pd = r.add(Restrack.Type.PD, "ib_core", () -> Map.of("users", "1"));
        r.add(Restrack.Type.QP, "ib_ipoib", () -> Map.of("lqpn", "72"));
        r.add(Restrack.Type.QP, "ib_ipoib", () -> Map.of("lqpn", "73"));
        assertEquals(Integer.valueOf(1), r.counts().get("pd"));
        assertEquals(Integer.valueOf(2), r.counts().get("qp"));
        assertEquals(Integer.valueOf(0), r.counts().get("cm_id"));
        List<ResourceDTO> qps = r.dtos(Restrack.Type.QP);
        assertEquals(2, qps.size());
        assertEquals("73", qps.get(1).attrs.get("lqpn"));
        assertEquals("ib_ipoib", qps.get(0).owner);
        assertEquals("mlx4_0", qps.get(0).device);
        r.del(pd);
        assertEquals(2, r.total());
        assertEquals(List.of("pd", "cq", "qp", "cm_id", "mr", "ctx", "srq", "wq", "mw", "ah"), List.copyOf(r.counts().keySet()));
    }
}
