package org.rdma.core.internal.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.QpInitAttr;

/** The service component applies {@code force_mr} from its configuration, and only while active. */
class RdmaRwComponentTest {
    private static RdmaRwComponent.Config config(boolean force) {
        return new RdmaRwComponent.Config() {
            @Override
            public boolean force_mr() {
                return force;
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return RdmaRwComponent.Config.class;
            }
        };
    }

    @AfterEach
    void unforce() {
        RwPolicy.setForceMr(false);
    }

    @Test
    void forceMrFollowsTheConfiguration() {
        RwNet n = new RwNet(a -> { });
        RdmaRwComponent c = new RdmaRwComponent(config(true));
        assertTrue(RwPolicy.forceMr());
        assertEquals(1, c.rwMrFactor(n.a, 1, 256), "forced: one MR of 256 pages");
        QpInitAttr attr = RwNet.init(null, 1, 2, 0);
        c.rwInitQp(n.a, attr);
        assertEquals(64 + 6, attr.cap.maxSendWr);
        c.modified(config(false));
        assertFalse(RwPolicy.forceMr());
        assertEquals(8, c.rwMrFactor(n.a, 1, 256), "32 SGEs per READ");
        c.modified(config(true));
        c.deactivate();
        assertFalse(RwPolicy.forceMr(), "the module parameter's default once the service is gone");
    }
}
