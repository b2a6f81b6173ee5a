package org.rdma.core.internal.verbs;

import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.runtime.RdmaNotifyEvent;

/** What a device needs from the registry that owns it. */
public interface DeviceServices {
    /** {@code ib_comp_wq}: the executor for {@code IB_POLL_WORKQUEUE} CQs. */
    Executor compWorkqueue();

    /** {@code ib_comp_unbound_wq}: the executor for {@code IB_POLL_UNBOUND_WORKQUEUE} CQs. */
    Executor compUnboundWorkqueue();

    /** Publishes an event on Event Admin, if one is present. */
    void postEvent(IbEvent event);

    /**
     * {@code rdma_nl_notify_event()}: publishes a lifecycle notification of {@code dev}
     * ({@code port} 0 and {@code netdev} null unless it is a netdev event). Tests' registries
     * may ignore it.
     */
    default void postNotify(RdmaNotifyEvent type, CoreDevice dev, int port, String netdev) {
    }

    /**
     * The services of a device outside any registry (a test harness, a benchmark): both
     * completion workqueues on {@code wq}, events published nowhere.
     */
    static DeviceServices standalone(Executor wq) {
        return standalone(wq, event -> {
        });
    }

    /**
     * The services of a device outside any registry: both completion workqueues on {@code wq},
     * events handed to {@code events} (a harness that waits for PORT_ACTIVE, say).
     */
    static DeviceServices standalone(Executor wq, Consumer<IbEvent> events) {
        return new DeviceServices() {
            @Override
            public Executor compWorkqueue() {
                return wq;
            }

            @Override
            public Executor compUnboundWorkqueue() {
                return wq;
            }

            @Override
            public void postEvent(IbEvent event) {
                events.accept(event);
            }
        };
    }
}
