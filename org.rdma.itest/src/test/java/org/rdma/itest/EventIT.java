package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.service.event.Event;
import org.osgi.service.event.EventConstants;
import org.osgi.service.event.EventHandler;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Runtimes;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * Asynchronous events ({@code ib_dispatch_event}): registered handlers get the port events the
 * driver raises, Event Admin gets them on {@code org/rdma/event/TYPE} with the documented
 * properties, an unregistered handler gets nothing more, and QP events go to the QP's handler.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class EventIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;
    private TestProvider p;
    private IbDevice dev;
    private String name;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(bc, "ev");
        p = new TestProvider(DeviceConfig.of(f.template(), f.driver()).ports(2));
        f.provider(p);
        name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        dev = p.device();
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private static IbEventHandler recorder(String tag, CallbackLog log) {
        return e -> log.add(tag + " " + e.type() + " " + e.device().name() + " " + e.portNum());
    }

    @Test
    void handlersAndEventAdminReceivePortEvents() {
        CallbackLog log = new CallbackLog();
        CallbackLog admin = new CallbackLog();
        Dictionary<String, Object> props = new Hashtable<>();
        props.put(EventConstants.EVENT_TOPIC, IbEventType.TOPIC_PREFIX + "*");
        props.put(EventConstants.EVENT_FILTER, "(" + IbRuntime.EVENT_DEVICE + "=" + name + ")");
        f.register(EventHandler.class, (Event e) -> admin.add(e.getTopic()
                + " device=" + e.getProperty(IbRuntime.EVENT_DEVICE)
                + " port=" + e.getProperty(IbRuntime.EVENT_PORT)
                + " type=" + e.getProperty(IbRuntime.EVENT_TYPE)
                + " message=" + e.getProperty(IbRuntime.EVENT_MESSAGE)), props);

        IbEventHandler h = recorder("H", log);
        dev.registerEventHandler(h);
        p.raise(IbEventType.PORT_ACTIVE, 1);
        p.raise(IbEventType.PORT_ERR, 2);
        p.raise(IbEventType.LID_CHANGE, 1);

        log.awaitSize(3);
        assertEquals(List.of("H PORT_ACTIVE " + name + " 1", "H PORT_ERR " + name + " 2", "H LID_CHANGE " + name + " 1"),
                log.entries(), "the handler gets each event once, in order");

        admin.awaitSize(3);
        List<String> expected = List.of(
                "org/rdma/event/PORT_ACTIVE device=" + name + " port=1 type=PORT_ACTIVE message=port active",
                "org/rdma/event/PORT_ERR device=" + name + " port=2 type=PORT_ERR message=port error",
                "org/rdma/event/LID_CHANGE device=" + name + " port=1 type=LID_CHANGE message=LID change");
        assertEquals(sorted(expected), sorted(admin.entries()), "Event Admin topics and properties");
        dev.unregisterEventHandler(h);
    }

    @Test
    void unregisteredHandlerGetsNothingMore() {
        CallbackLog log = new CallbackLog();
        IbEventHandler gone = recorder("GONE", log);
        IbEventHandler stays = recorder("STAYS", log);
        dev.registerEventHandler(gone);
        dev.registerEventHandler(stays);
        p.raise(IbEventType.PORT_ACTIVE, 1);
        log.awaitSize(2);
        assertEquals(sorted(List.of("GONE PORT_ACTIVE " + name + " 1", "STAYS PORT_ACTIVE " + name + " 1")),
                sorted(log.entries()), "both handlers get the event");

        dev.unregisterEventHandler(gone);
        p.raise(IbEventType.PORT_ERR, 1);
        p.raise(IbEventType.SM_CHANGE, 2);
        log.awaitSize(4);
        // The staying handler saw both later events; a late call of the other would be here too.
        assertEquals(List.of("STAYS PORT_ERR " + name + " 1", "STAYS SM_CHANGE " + name + " 2"),
                log.entries().subList(2, log.size()), "nothing for the unregistered handler");
        dev.unregisterEventHandler(stays);
    }

    @Test
    void qpEventsGoToTheQpHandlerOnly() {
        CallbackLog log = new CallbackLog();
        IbEventHandler devHandler = recorder("DEV", log);
        dev.registerEventHandler(devHandler);
        IbPd pd = dev.allocPd(0, "itest");
        IbCq cq = dev.allocCq(null, 16, 0, PollContext.DIRECT, "itest");
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 4;
        init.cap.maxRecvWr = 4;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        List<IbEvent> qpEvents = new ArrayList<>();
        init.eventHandler = e -> {
            synchronized (qpEvents) {
                qpEvents.add(e);
            }
            log.add("QP " + e.type());
        };
        IbQp qp = pd.createQp(init);

        p.qpOf(qp).raise(IbEventType.QP_FATAL);
        p.raise(IbEventType.PORT_ACTIVE, 1);
        log.awaitSize(2);
        assertEquals(sorted(List.of("QP QP_FATAL", "DEV PORT_ACTIVE " + name + " 1")), sorted(log.entries()),
                "the QP event reaches only the QP's handler");
        synchronized (qpEvents) {
            assertEquals(1, qpEvents.size());
            assertTrue(qpEvents.get(0).qp() == qp, "the event names the consumer's QP");
        }
        dev.unregisterEventHandler(devHandler);
        qp.destroy();
        cq.free();
        pd.dealloc();
        assertEquals(List.of(), p.violations());
    }

    private static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        s.sort(null);
        return s;
    }
}
