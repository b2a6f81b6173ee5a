package org.rdma.rvt.internal.qp;

import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.internal.mem.RvtPd;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.spi.ProviderAh;

/** An address handle ({@code struct rvt_ah}): the transport's own copy of the address vector. */
public final class RvtAh implements ProviderAh {
    final RvtPd pd;
    final AhAttr attr = new AhAttr();
    private final RvtDriver driver;
    private final Runnable onDestroy;

    RvtAh(RvtPd pd, AhAttr src, RvtDriver driver, Runnable onDestroy) {
        this.pd = pd;
        this.driver = driver;
        this.onDestroy = onDestroy;
        AhAttr.copy(attr, src);
        try {
            driver.resolveAh(attr.portNum, attr);
        } catch (RuntimeException e) {
            AhAttr.destroy(attr);
            throw e;
        }
    }

    @Override
    public void modify(AhAttr src) {
        AhAttr next = new AhAttr();
        AhAttr.copy(next, src);
        try {
            driver.resolveAh(next.portNum, next);
        } catch (RuntimeException e) {
            AhAttr.destroy(next);
            throw e;
        }
        synchronized (this) {
            AhAttr.move(attr, next);
        }
    }

    @Override
    public void destroy() {
        AhAttr.destroy(attr);
        onDestroy.run();
    }
}
