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

    @Test
    void listsStayInIdOrderThroughDeletesAndFindTheTrackedObjects() {
        Restrack r = new Restrack("mlx4_0");
        Object[] objs = new Object[6];
        Restrack.Entry[] e = new Restrack.Entry[6];
        for (int i = 0; i < 6; i++) {
            objs[i] = "ah" + i;
            int n = i;
            e[i] = r.add(Restrack.Type.AH, "ib_mad", () -> Map.of("n", Integer.toString(n)), objs[i]);
            assertEquals(i, e[i].id(), "ids count up per type");
        }
        Restrack.Entry cmId = r.add(Restrack.Type.CM_ID, "rdma_cm", Map::of);
        r.del(e[0]);
        r.del(e[3]);
        r.del(e[5]);
        r.del(e[3]);
        assertEquals(Integer.valueOf(3), r.counts().get("ah"), "deleting twice is harmless");
        assertEquals(List.of(1L, 2L, 4L), r.dtos(Restrack.Type.AH).stream().map(d -> d.id).toList());
        assertEquals(List.of(objs[1], objs[2], objs[4]), r.objects(), "objects tracked without one are left out");
        Restrack.Entry again = r.add(Restrack.Type.AH, "ib_mad", Map::of, "ah6");
        assertEquals(6, again.id(), "ids are not reused");
        assertEquals(List.of(1L, 2L, 4L, 6L), r.dtos(Restrack.Type.AH).stream().map(d -> d.id).toList());
        r.del(cmId);
        for (Restrack.Entry x : new Restrack.Entry[] {e[1], e[2], e[4], again}) {
            r.del(x);
        }
        assertEquals(0, r.total());
        assertEquals(List.of(), r.objects());
        r.del(null);
    }
}
