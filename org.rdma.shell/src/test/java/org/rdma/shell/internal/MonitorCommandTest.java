package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.service.event.Event;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RdmaNotifyEvent;

/** {@code rdma:monitor}'s lines: iproute2's {@code rdma monitor} layout. */
class MonitorCommandTest {
    @Test
    void notificationsPrintAsRdmaMonitorPrintsThem() {
        assertEquals("[REGISTER]\tdev 2 mlx4_0", MonitorCommand.line(new Event(RdmaNotifyEvent.REGISTER.topic(),
                Map.of(IbRuntime.EVENT_DEVICE, "mlx4_0", RdmaNotifyEvent.PROP_DEV_INDEX, 2))));
        assertEquals("[UNREGISTER]\tdev 7 rxe0", MonitorCommand.line(new Event(RdmaNotifyEvent.UNREGISTER.topic(),
                Map.of(IbRuntime.EVENT_DEVICE, "rxe0", RdmaNotifyEvent.PROP_DEV_INDEX, 7))));
        assertEquals("[NETDEV_ATTACH]\tdev 2 mlx4_0 port 2 netdev eth2",
                MonitorCommand.line(new Event(RdmaNotifyEvent.NETDEV_ATTACH.topic(), Map.of(IbRuntime.EVENT_DEVICE,
                        "mlx4_0", RdmaNotifyEvent.PROP_DEV_INDEX, 2, IbRuntime.EVENT_PORT, 2,
                        RdmaNotifyEvent.PROP_NETDEV, "eth2"))));
    }

    @Test
    void asyncEventsAndClientsUseTheSameLayout() {
        assertEquals("[PORT_ACTIVE]\tdev 0 mlx4_0 port 1", MonitorCommand.line(new Event(
                IbEventType.PORT_ACTIVE.topic(), Map.of(IbRuntime.EVENT_DEVICE, "mlx4_0",
                        RdmaNotifyEvent.PROP_DEV_INDEX, 0, IbRuntime.EVENT_PORT, 1, IbRuntime.EVENT_TYPE, "PORT_ACTIVE"))));
        assertEquals("[QP_FATAL]\tdev 0 mlx4_0 qpn 17", MonitorCommand.line(new Event(IbEventType.QP_FATAL.topic(),
                Map.of(IbRuntime.EVENT_DEVICE, "mlx4_0", RdmaNotifyEvent.PROP_DEV_INDEX, 0, "qpn", 17))));
        assertEquals("[CLIENT_REMOVE]\tdev 1 mlx4_1 client mad", MonitorCommand.line(new Event(
                IbRuntime.TOPIC_CLIENT_REMOVE, Map.of(IbRuntime.EVENT_DEVICE, "mlx4_1",
                        RdmaNotifyEvent.PROP_DEV_INDEX, 1, IbRuntime.EVENT_CLIENT, "mad"))));
    }
}
