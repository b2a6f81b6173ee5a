package org.rdma.cm.internal.ib;

import org.rdma.verbs.IbDevice;

/**
 * The CM's data for one device: {@code struct cm_device}. {@link #goingDown} is set first thing
 * in {@code remove}; work for the device that starts after that is dropped, and {@code remove}
 * waits for work that had already started ({@link #active}).
 */
final class CmDevice {
    final IbDevice device;
    /** {@code cm_dev->ack_delay}: the CA's local ACK delay. */
    final int ackDelay;
    /** {@code cm_dev->port[]}, indexed by port number; {@code null} for ports without a CM. */
    final CmPort[] ports;
    /** {@code cm_dev->going_down}. */
    volatile boolean goingDown;
    /** Work items of this device running now; guarded by {@code this}. */
    private int active;

    CmDevice(IbDevice device) {
        this.device = device;
        this.ackDelay = device.attrs().localCaAckDelay;
        this.ports = new CmPort[device.endPort() + 1];
    }

    /** The port, or {@code null} if the CM does not run there. */
    CmPort port(int portNum) {
        return portNum > 0 && portNum < ports.length ? ports[portNum] : null;
    }

    /** Enters a work item; false when the device is going away (the work must be dropped). */
    synchronized boolean enter() {
        if (goingDown) {
            return false;
        }
        active++;
        return true;
    }

    synchronized void exit() {
        if (--active == 0) {
            notifyAll();
        }
    }

    /** Sets {@link #goingDown} and waits until no work of the device runs (except the caller's own). */
    synchronized void fence(boolean callerInWork) {
        goingDown = true;
        int own = callerInWork ? 1 : 0;
        boolean interrupted = false;
        while (active > own) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
