package org.rdma.rvt.harness;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DmaSpace;

/** The core's side for tests: a real DMA space, provider lookup, recorded events and CQ upcalls. */
public final class FakeContext implements DeviceContext {
    /** The DMA space. */
    public final FakeDma dma = new FakeDma();
    private final Map<Object, Object> providers = new IdentityHashMap<>();
    /** Events dispatched, in order. */
    public final List<IbEvent> events = new ArrayList<>();
    /** CQ completion upcalls per core CQ. */
    public final Map<IbCq, Integer> cqUpcalls = new IdentityHashMap<>();
    /** Optional handler run on every CQ upcall. */
    public Consumer<IbCq> onCqComplete;

    /** Records the provider object behind a core object. */
    public synchronized void bind(Object core, Object provider) {
        providers.put(core, provider);
    }

    @Override
    public IbDevice device() {
        return null;
    }

    @Override
    public synchronized void dispatchEvent(IbEvent event) {
        events.add(event);
    }

    @Override
    public void cqComplete(IbCq cq) {
        synchronized (this) {
            cqUpcalls.merge(cq, 1, Integer::sum);
        }
        if (onCqComplete != null) {
            onCqComplete.accept(cq);
        }
    }

    /** Upcalls seen for {@code cq}. */
    public synchronized int upcalls(IbCq cq) {
        return cqUpcalls.getOrDefault(cq, 0);
    }

    @Override
    public void setNetdev(int port, String netdev) {
    }

    @Override
    public DmaSpace dma() {
        return dma;
    }

    @Override
    public <T> T providerOf(Object coreObject, Class<T> type) {
        Object p;
        synchronized (this) {
            p = providers.get(coreObject);
        }
        return type.cast(p);
    }
}
