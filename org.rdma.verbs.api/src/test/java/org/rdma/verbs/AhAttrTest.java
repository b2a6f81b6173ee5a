package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The SGID reference rules of {@code rdma_copy/replace/move/destroy_ah_attr()}. */
class AhAttrTest {
    static final class CountingGid implements GidAttr {
        int refs = 1;

        @Override public IbDevice device() { return null; }
        @Override public Gid gid() { return Gid.linkLocal(1); }
        @Override public GidType gidType() { return GidType.IB; }
        @Override public int index() { return 0; }
        @Override public int portNum() { return 1; }
        @Override public String netdev() { return null; }
        @Override public void hold() { refs++; }
        @Override public void put() { refs--; }
    }

    private static AhAttr withGrh(CountingGid g) {
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.dlid = 0x12;
        a.setGrh(Gid.linkLocal(0x99), 7, 0, 64, 3, g);
        return a;
    }

    @Test
    void copyTakesAReference() {
        CountingGid g = new CountingGid();
        AhAttr src = withGrh(g);
        AhAttr dst = new AhAttr();
        AhAttr.copy(dst, src);
        assertEquals(2, g.refs);
        assertSame(g, dst.grh.sgidAttr);
        assertEquals(0x12, dst.dlid);
        assertEquals(7, dst.grh.flowLabel);
        assertEquals(Gid.linkLocal(0x99), dst.grh.dgid);
    }

    @Test
    void replaceDropsTheOldAndHoldsTheNew() {
        CountingGid oldGid = new CountingGid();
        CountingGid newGid = new CountingGid();
        AhAttr old = withGrh(oldGid);
        AhAttr.replace(old, withGrh(newGid));
        assertEquals(0, oldGid.refs);
        assertEquals(2, newGid.refs);
        assertSame(newGid, old.grh.sgidAttr);
    }

    @Test
    void moveTransfersWithoutCounting() {
        CountingGid held = new CountingGid();
        CountingGid moved = new CountingGid();
        AhAttr dest = withGrh(held);
        AhAttr src = withGrh(moved);
        AhAttr.move(dest, src);
        assertEquals(0, held.refs);
        assertEquals(1, moved.refs);
        assertSame(moved, dest.grh.sgidAttr);
        assertNull(src.grh.sgidAttr);
    }

    @Test
    void destroyPutsOnce() {
        CountingGid g = new CountingGid();
        AhAttr a = withGrh(g);
        AhAttr.destroy(a);
        AhAttr.destroy(a);
        assertEquals(0, g.refs);
        assertNull(a.grh.sgidAttr);
    }
}
