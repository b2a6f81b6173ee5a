package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import org.junit.jupiter.api.Test;

/** The signature attributes: copying and the wire-domain length an RDMA operation moves. */
class SigAttrsTest {
    private static SigAttrs attrs(SignatureType mem, SignatureType wire, int interval) {
        SigAttrs a = new SigAttrs();
        a.mem.sigType = mem;
        a.wire.sigType = wire;
        a.mem.dif.piInterval = interval;
        a.wire.dif.piInterval = interval;
        return a;
    }

    @Test
    void wireLengthOfEachConversion() {
        SignatureType dif = SignatureType.T10_DIF;
        SignatureType none = SignatureType.NONE;
        // 8 intervals of 512 data bytes, DIX metadata of 64 bytes: mr->length is 4160
        SigAttrs pass = attrs(dif, dif, 512);
        pass.metaLength = 64;
        assertEquals(4160, pass.wireLength(4160), "pass: mr->length, as rdma_rw puts it in the SGE");
        SigAttrs strip = attrs(dif, none, 512);
        strip.metaLength = 64;
        assertEquals(4096, strip.wireLength(4160), "strip: mr->length - meta_length");
        assertEquals(4160, attrs(none, dif, 512).wireLength(4096), "insert: the tuples are added on the wire");
        assertEquals(4096, attrs(dif, none, 512).wireLength(4160), "interleaved in memory, stripped");
        assertEquals(8 * 4104, attrs(none, dif, 4096).wireLength(8 * 4096));
        assertEquals(1000, attrs(none, none, 512).wireLength(1000));
    }

    @Test
    void copyFromCopiesBothDomainsDeeply() {
        SigAttrs a = attrs(SignatureType.T10_DIF, SignatureType.NONE, 4096);
        a.checkMask = SigAttrs.CHECK_GUARD | SigAttrs.CHECK_REFTAG;
        a.mem.dif.bgType = T10DifBgType.CSUM;
        a.mem.dif.appTag = 0x1234;
        a.mem.dif.refTag = 77;
        a.mem.dif.refRemap = true;
        a.mem.dif.appEscape = true;
        a.mem.dif.refEscape = true;
        a.mem.dif.apptagCheckMask = 0xff;
        a.mem.dif.bg = 5;
        a.metaLength = 9;
        SigAttrs c = new SigAttrs().copyFrom(a);
        assertNotSame(a.mem.dif, c.mem.dif);
        assertEquals(0xcf, c.checkMask);
        assertEquals(SignatureType.T10_DIF, c.mem.sigType);
        assertEquals(SignatureType.NONE, c.wire.sigType);
        assertEquals(T10DifBgType.CSUM, c.mem.dif.bgType);
        assertEquals(0x1234, c.mem.dif.appTag);
        assertEquals(77, c.mem.dif.refTag);
        assertEquals(true, c.mem.dif.refRemap && c.mem.dif.appEscape && c.mem.dif.refEscape);
        assertEquals(0xff, c.mem.dif.apptagCheckMask);
        assertEquals(5, c.mem.dif.bg);
        assertEquals(4096, c.mem.dif.piInterval);
        assertEquals(9, c.metaLength);
        a.mem.dif.appTag = 1;
        assertEquals(0x1234, c.mem.dif.appTag);
    }

    @Test
    void checkMaskBitsCoverTheEightTupleBytes() {
        assertEquals(0xff, SigAttrs.CHECK_GUARD | SigAttrs.CHECK_APPTAG | SigAttrs.CHECK_REFTAG);
        assertEquals(0, SigAttrs.CHECK_GUARD & SigAttrs.CHECK_APPTAG);
        assertEquals(0, SigAttrs.CHECK_APPTAG & SigAttrs.CHECK_REFTAG);
    }
}
