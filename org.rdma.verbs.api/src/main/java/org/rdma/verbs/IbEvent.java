package org.rdma.verbs;

/**
 * An asynchronous event: {@code struct ib_event}. The element is a port number, a QP, a CQ,
 * an SRQ or a WQ depending on {@link #type()}; the other accessors return {@code null}/0.
 */
public final class IbEvent {
    private final IbDevice device;
    private final IbEventType type;
    private final int portNum;
    private final Object element;

    private IbEvent(IbDevice device, IbEventType type, int portNum, Object element) {
        this.device = device;
        this.type = type;
        this.portNum = portNum;
        this.element = element;
    }

    /** A device or port event ({@code element.port_num}; 0 for device-wide events). */
    public static IbEvent port(IbDevice device, IbEventType type, int portNum) {
        return new IbEvent(device, type, portNum, null);
    }

    /** A QP event ({@code element.qp}). */
    public static IbEvent qp(IbEventType type, IbQp qp) {
        return new IbEvent(qp.device(), type, 0, qp);
    }

    /** A CQ event ({@code element.cq}). */
    public static IbEvent cq(IbEventType type, IbCq cq) {
        return new IbEvent(cq.device(), type, 0, cq);
    }

    /** An SRQ event ({@code element.srq}). */
    public static IbEvent srq(IbEventType type, IbSrq srq) {
        return new IbEvent(srq.device(), type, 0, srq);
    }

    /** A WQ event ({@code element.wq}). */
    public static IbEvent wq(IbEventType type, IbWq wq) {
        return new IbEvent(wq.device(), type, 0, wq);
    }

    /** {@code event->device}. */
    public IbDevice device() {
        return device;
    }

    /** {@code event->event}. */
    public IbEventType type() {
        return type;
    }

    /** {@code element.port_num}. */
    public int portNum() {
        return portNum;
    }

    /** {@code element.qp}, or null. */
    public IbQp qp() {
        return element instanceof IbQp ? (IbQp) element : null;
    }

    /** {@code element.cq}, or null. */
    public IbCq cq() {
        return element instanceof IbCq ? (IbCq) element : null;
    }

    /** {@code element.srq}, or null. */
    public IbSrq srq() {
        return element instanceof IbSrq ? (IbSrq) element : null;
    }

    /** {@code element.wq}, or null. */
    public IbWq wq() {
        return element instanceof IbWq ? (IbWq) element : null;
    }

    @Override
    public String toString() {
        return device.name() + ": " + type.message()
                + (type.isPortEvent() ? " (port " + portNum + ")" : element != null ? " (" + element + ")" : "");
    }
}
