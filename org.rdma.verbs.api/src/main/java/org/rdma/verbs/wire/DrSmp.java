package org.rdma.verbs.wire;

/**
 * Directed-route SMP processing at a node's subnet management interface (IBTA vol. 1, 14.2.2):
 * hop pointer and return path updates, and the decision to hand an SMP to the local SMA/SM, send
 * it out of a port, or discard it.
 *
 * <p>Mirrors drivers/infiniband/core/smi.c and smi.h: {@link #handleDrSmpSend}
 * ({@code smi_handle_dr_smp_send()}), {@link #handleDrSmpRecv} ({@code smi_handle_dr_smp_recv()}),
 * {@link #checkForwardDrSmp} ({@code smi_check_forward_dr_smp()}), {@link #getFwdPort}
 * ({@code smi_get_fwd_port()}), {@link #checkLocalSmp} and {@link #checkLocalReturningSmp}; and
 * their two callers in drivers/infiniband/core/mad.c: {@link #receive} ({@code handle_ib_smi()})
 * and {@link #send} ({@code handle_outgoing_dr_smp()}). The comments name the IBTA compliance
 * statements (C14-6, C14-9:1..5, C14-13:1..5) each branch implements.
 *
 * <p>Vocabulary: an outgoing SMP (D bit clear) walks {@link Smp#initialPath}; hop {@code i} leaves
 * its node through {@code initialPath[i]} and the receiving switch records its input port in
 * {@code returnPath[i]}. A returning SMP (D bit set) walks the return path backwards. DrSLID and
 * DrDLID are {@link Smp#IB_LID_PERMISSIVE} where the route has no LID-routed part at that end.
 *
 * <p>The functions update {@link Smp#hopPtr} and {@link Smp#returnPath} in place, like the kernel.
 * They are stateless and thread-safe; the SMP is not.
 */
public final class DrSmp {

    /** Mirrors {@code enum smi_action}. */
    public enum SmiAction {
        /** {@code IB_SMI_DISCARD}: drop the SMP. */
        DISCARD,
        /** {@code IB_SMI_HANDLE}: the SMP may proceed. */
        HANDLE
    }

    /** Mirrors {@code enum smi_forward_action}. */
    public enum SmiForwardAction {
        /** {@code IB_SMI_LOCAL}: complete the SMP up the stack (to the local SMA/SM). */
        LOCAL,
        /** {@code IB_SMI_SEND}: the received SMP goes back through the send-side processing. */
        SEND,
        /** {@code IB_SMI_FORWARD}: a switch forwards the SMP out of {@link #getFwdPort}. */
        FORWARD
    }

    /** What a node does with an SMP. */
    public enum Verdict {
        /** Give the SMP to the local SMA or SM ({@code IB_SMI_HANDLE}, process_mad). */
        HANDLE,
        /** Drop the SMP ({@code IB_SMI_DISCARD}). */
        DISCARD,
        /** Put the SMP on the wire out of {@link Decision#port()}. */
        FORWARD
    }

    /**
     * The outcome of {@link #receive} or {@link #send}.
     *
     * @param verdict what to do
     * @param port    for {@link Verdict#FORWARD}, the port to transmit on; otherwise 0
     */
    public record Decision(Verdict verdict, int port) {

        private static final Decision HANDLE = new Decision(Verdict.HANDLE, 0);
        private static final Decision DISCARD = new Decision(Verdict.DISCARD, 0);

        /** @return the decision to hand the SMP to the local SMA/SM */
        public static Decision handle() {
            return HANDLE;
        }

        /** @return the decision to drop the SMP */
        public static Decision discard() {
            return DISCARD;
        }

        /**
         * @param port the output port
         * @return the decision to transmit the SMP out of {@code port}
         */
        public static Decision forward(int port) {
            return new Decision(Verdict.FORWARD, port);
        }
    }

    private DrSmp() {
    }

    private static void checkPaths(Smp smp) {
        if (smp.initialPath == null || smp.initialPath.length != Smp.IB_SMP_MAX_PATH_HOPS
                || smp.returnPath == null || smp.returnPath.length != Smp.IB_SMP_MAX_PATH_HOPS) {
            throw IbFieldTables.einval("a directed-route SMP needs initial and return paths of "
                    + Smp.IB_SMP_MAX_PATH_HOPS + " entries");
        }
    }

    private static SmiAction when(boolean ok) {
        return ok ? SmiAction.HANDLE : SmiAction.DISCARD;
    }

    /**
     * Fixes up a directed-route SMP about to leave this node through {@code portNum}.
     * Mirrors {@code smi_handle_dr_smp_send()}.
     *
     * @param smp      the SMP; {@link Smp#hopPtr} is advanced (outgoing) or moved back (returning)
     * @param isSwitch whether this node is a switch ({@code RDMA_NODE_IB_SWITCH})
     * @param portNum  the port the SMP leaves through
     * @return {@link SmiAction#DISCARD} if the SMP must be dropped
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the paths are not 64 entries
     */
    public static SmiAction handleDrSmpSend(Smp smp, boolean isSwitch, int portNum) {
        checkPaths(smp);
        int hopPtr = smp.hopPtr & 0xFF;
        int hopCnt = smp.hopCnt & 0xFF;
        boolean dlidPermissive = smp.drDlid == Smp.IB_LID_PERMISSIVE;
        boolean slidPermissive = smp.drSlid == Smp.IB_LID_PERMISSIVE;

        // C14-6: valid hop counts are 0 to 63
        if (hopCnt >= Smp.IB_SMP_MAX_PATH_HOPS) {
            return SmiAction.DISCARD;
        }
        if (!smp.direction()) {
            // C14-9:1: the originator starts the directed route
            if (hopCnt != 0 && hopPtr == 0) {
                smp.hopPtr = ++hopPtr;
                return when(smp.initialPort(hopPtr) == portNum);
            }
            // C14-9:2: an intermediate switch (return path set when received)
            if (hopPtr != 0 && hopPtr < hopCnt) {
                if (!isSwitch) {
                    return SmiAction.DISCARD;
                }
                smp.hopPtr = ++hopPtr;
                return when(smp.initialPort(hopPtr) == portNum);
            }
            // C14-9:3: end of the directed part of the path
            if (hopPtr == hopCnt) {
                smp.hopPtr = ++hopPtr;
                return when(isSwitch || dlidPermissive);
            }
            // C14-9:4: hop pointer = hop count + 1 -> give to the SMA/SM; C14-9:5: anything else fails
            return when(hopPtr == hopCnt + 1);
        }
        // C14-13:1: the responder starts the return trip
        if (hopCnt != 0 && hopPtr == hopCnt + 1) {
            smp.hopPtr = --hopPtr;
            return when(smp.returnPort(hopPtr) == portNum);
        }
        // C14-13:2: an intermediate switch
        if (2 <= hopPtr && hopPtr <= hopCnt) {
            if (!isSwitch) {
                return SmiAction.DISCARD;
            }
            smp.hopPtr = --hopPtr;
            return when(smp.returnPort(hopPtr) == portNum);
        }
        // C14-13:3: end of the directed part; SMPs destined for the SM should not be sent here
        if (hopPtr == 1) {
            smp.hopPtr = --hopPtr;
            return when(isSwitch || slidPermissive);
        }
        // C14-13:4: hop pointer 0 -> should have gone to the SM; C14-13:5: unreasonable hop pointer
        return when(hopPtr == 0);
    }

    /**
     * Adjusts a directed-route SMP just received on {@code portNum}: records the input port in the
     * return path at intermediate switches. Mirrors {@code smi_handle_dr_smp_recv()}.
     *
     * @param smp         the SMP; {@link Smp#returnPath} and, for a returning SMP at its end,
     *                    {@link Smp#hopPtr} are updated
     * @param isSwitch    whether this node is a switch
     * @param portNum     the port the SMP arrived on
     * @param physPortCnt the number of physical ports of this node
     * @return {@link SmiAction#DISCARD} if the SMP must be dropped
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the paths are not 64 entries
     */
    public static SmiAction handleDrSmpRecv(Smp smp, boolean isSwitch, int portNum, int physPortCnt) {
        checkPaths(smp);
        int hopPtr = smp.hopPtr & 0xFF;
        int hopCnt = smp.hopCnt & 0xFF;
        boolean dlidPermissive = smp.drDlid == Smp.IB_LID_PERMISSIVE;
        boolean slidPermissive = smp.drSlid == Smp.IB_LID_PERMISSIVE;

        // C14-6: valid hop counts are 0 to 63
        if (hopCnt >= Smp.IB_SMP_MAX_PATH_HOPS) {
            return SmiAction.DISCARD;
        }
        if (!smp.direction()) {
            // C14-9:1: the sender should have incremented the hop pointer
            if (hopCnt != 0 && hopPtr == 0) {
                return SmiAction.DISCARD;
            }
            // C14-9:2: intermediate hop (hop pointer updated when sending)
            if (hopPtr != 0 && hopPtr < hopCnt) {
                if (!isSwitch) {
                    return SmiAction.DISCARD;
                }
                smp.returnPath[hopPtr] = (byte) portNum;
                return when(smp.initialPort(hopPtr + 1) <= physPortCnt);
            }
            // C14-9:3: end of the directed part of the path
            if (hopPtr == hopCnt) {
                if (hopCnt != 0) {
                    smp.returnPath[hopPtr] = (byte) portNum;
                }
                return when(isSwitch || dlidPermissive);
            }
            // C14-9:4: hop pointer = hop count + 1 -> give to the SMA/SM; C14-9:5: anything else fails
            return when(hopPtr == hopCnt + 1);
        }
        // C14-13:1
        if (hopCnt != 0 && hopPtr == hopCnt + 1) {
            smp.hopPtr = --hopPtr;
            return when(smp.returnPort(hopPtr) == portNum);
        }
        // C14-13:2: intermediate hop (hop pointer updated when sending)
        if (2 <= hopPtr && hopPtr <= hopCnt) {
            if (!isSwitch) {
                return SmiAction.DISCARD;
            }
            return when(smp.returnPort(hopPtr - 1) <= physPortCnt);
        }
        // C14-13:3: end of the directed part of the path
        if (hopPtr == 1) {
            if (slidPermissive) {
                // giving the SMP to the SM: update the hop pointer
                smp.hopPtr = --hopPtr;
                return SmiAction.HANDLE;
            }
            // hop pointer updated when sending
            return when(isSwitch);
        }
        // C14-13:4: hop pointer 0 -> give to the SM; C14-13:5: unreasonable hop pointer
        return when(hopPtr == 0);
    }

    /**
     * Where a received directed-route SMP (already passed through {@link #handleDrSmpRecv}) goes
     * next. Mirrors {@code smi_check_forward_dr_smp()}.
     *
     * @param smp the SMP
     * @return {@link SmiForwardAction#FORWARD} at an intermediate hop,
     *         {@link SmiForwardAction#SEND} where the directed part ends and a LID-routed part (or
     *         the local SMA) follows, {@link SmiForwardAction#LOCAL} otherwise
     */
    public static SmiForwardAction checkForwardDrSmp(Smp smp) {
        int hopPtr = smp.hopPtr & 0xFF;
        int hopCnt = smp.hopCnt & 0xFF;
        if (!smp.direction()) {
            // C14-9:2: intermediate hop
            if (hopPtr != 0 && hopPtr < hopCnt) {
                return SmiForwardAction.FORWARD;
            }
            // C14-9:3: end of the directed part of the path
            if (hopPtr == hopCnt) {
                return smp.drDlid == Smp.IB_LID_PERMISSIVE ? SmiForwardAction.SEND : SmiForwardAction.LOCAL;
            }
            // C14-9:4: hop pointer = hop count + 1 -> give to the SMA/SM
            if (hopPtr == hopCnt + 1) {
                return SmiForwardAction.SEND;
            }
        } else {
            // C14-13:2: intermediate hop
            if (2 <= hopPtr && hopPtr <= hopCnt) {
                return SmiForwardAction.FORWARD;
            }
            // C14-13:3: end of the directed part of the path
            if (hopPtr == 1) {
                return smp.drSlid != Smp.IB_LID_PERMISSIVE ? SmiForwardAction.SEND : SmiForwardAction.LOCAL;
            }
        }
        return SmiForwardAction.LOCAL;
    }

    /**
     * The port a switch forwards a received SMP out of: {@code initialPath[hopPtr + 1]} when
     * outgoing, {@code returnPath[hopPtr - 1]} when returning. Mirrors {@code smi_get_fwd_port()}.
     *
     * @param smp the SMP
     * @return the output port
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the hop pointer indexes outside
     *                                  the path
     */
    public static int getFwdPort(Smp smp) {
        checkPaths(smp);
        int hopPtr = smp.hopPtr & 0xFF;
        int index = smp.direction() ? hopPtr - 1 : hopPtr + 1;
        if (index < 0 || index >= Smp.IB_SMP_MAX_PATH_HOPS) {
            throw IbFieldTables.einval("hop pointer " + hopPtr + " has no forwarding port");
        }
        return smp.direction() ? smp.returnPort(index) : smp.initialPort(index);
    }

    /**
     * Whether an outgoing SMP has reached its destination's SMA: D bit clear and hop pointer =
     * hop count + 1 (C14-9:3, C14-9:4). Mirrors {@code smi_check_local_smp()}.
     *
     * @param smp           the SMP
     * @param hasProcessMad whether the device has an SMA to process MADs ({@code ops.process_mad})
     * @return {@link SmiAction#HANDLE} if the local SMA takes the SMP
     */
    public static SmiAction checkLocalSmp(Smp smp, boolean hasProcessMad) {
        return when(hasProcessMad && !smp.direction() && (smp.hopPtr & 0xFF) == (smp.hopCnt & 0xFF) + 1);
    }

    /**
     * Whether a returning SMP has reached the SM: D bit set and hop pointer 0 (C14-13:3, C14-13:4).
     * Mirrors {@code smi_check_local_returning_smp()}.
     *
     * @param smp           the SMP
     * @param hasProcessMad whether the device processes MADs locally ({@code ops.process_mad})
     * @return {@link SmiAction#HANDLE} if the SMP is for the local SM
     */
    public static SmiAction checkLocalReturningSmp(Smp smp, boolean hasProcessMad) {
        return when(hasProcessMad && smp.direction() && (smp.hopPtr & 0xFF) == 0);
    }

    /**
     * Processes an SMP received on {@code portNum} of a node with a local SMA, like the kernel's
     * {@code handle_ib_smi()} (drivers/infiniband/core/mad.c).
     *
     * <ul>
     *   <li>LID-routed SMPs are not subject to directed-route processing: {@link Verdict#HANDLE}.</li>
     *   <li>{@link #handleDrSmpRecv} discards: {@link Verdict#DISCARD}.</li>
     *   <li>{@link SmiForwardAction#LOCAL}: {@link Verdict#HANDLE}.</li>
     *   <li>{@link SmiForwardAction#SEND}: the SMP goes through {@link #handleDrSmpSend} on the
     *       same port and must then be for the local SMA ({@link #checkLocalSmp}), else
     *       {@link Verdict#DISCARD}; the kernel does not LID-route the remainder itself.</li>
     *   <li>{@link SmiForwardAction#FORWARD} at a switch: {@link Verdict#FORWARD} out of
     *       {@link #getFwdPort}. The hop pointer is not yet advanced: as in the kernel, where the
     *       forwarded copy is posted through {@code handle_outgoing_dr_smp()}, the caller passes the
     *       SMP to {@link #send} with that port. At a channel adapter (unreachable after
     *       {@link #handleDrSmpRecv}) the kernel falls through to {@link Verdict#HANDLE}.</li>
     * </ul>
     *
     * @param smp         the received SMP, updated in place
     * @param isSwitch    whether this node is a switch
     * @param portNum     the port it arrived on
     * @param physPortCnt the number of physical ports of this node
     * @return what to do with it
     */
    public static Decision receive(Smp smp, boolean isSwitch, int portNum, int physPortCnt) {
        if (!smp.isDirectedRoute()) {
            return Decision.handle();
        }
        if (handleDrSmpRecv(smp, isSwitch, portNum, physPortCnt) == SmiAction.DISCARD) {
            return Decision.discard();
        }
        SmiForwardAction next = checkForwardDrSmp(smp);
        if (next == SmiForwardAction.LOCAL) {
            return Decision.handle();
        }
        if (next == SmiForwardAction.SEND) {
            // cannot fail for an SMP that handleDrSmpRecv() accepted; checked as in the kernel
            if (handleDrSmpSend(smp, isSwitch, portNum) == SmiAction.DISCARD) {
                return Decision.discard();
            }
            if (checkLocalSmp(smp, true) == SmiAction.DISCARD) {
                return Decision.discard();
            }
        } else if (isSwitch) {
            return Decision.forward(getFwdPort(smp));
        }
        // LOCAL handled above; SEND accepted; FORWARD at a CA cannot pass handleDrSmpRecv()
        return Decision.handle();
    }

    /**
     * Processes an SMP this node is about to send out of {@code portNum} (a request from its SM,
     * a response from its SMA, or a switch forwarding a received SMP), like the kernel's
     * {@code handle_outgoing_dr_smp()} (drivers/infiniband/core/mad.c).
     *
     * <ul>
     *   <li>LID-routed SMPs go out unchanged: {@link Verdict#FORWARD} on {@code portNum}.</li>
     *   <li>If the directed part starts here (DrSLID permissive when outgoing, DrDLID permissive
     *       when returning), {@link #handleDrSmpSend} advances the hop pointer; if it discards,
     *       the route is invalid ({@code -EINVAL} in the kernel): {@link Verdict#DISCARD}.</li>
     *   <li>If the SMP is now for this node's own SMA ({@link #checkLocalSmp}: a hop count of 0,
     *       a loopback) or SM ({@link #checkLocalReturningSmp}): {@link Verdict#HANDLE}.</li>
     *   <li>Otherwise it goes on the wire: {@link Verdict#FORWARD} on {@code portNum}.</li>
     * </ul>
     *
     * @param smp      the SMP, updated in place
     * @param isSwitch whether this node is a switch
     * @param portNum  the port it leaves through
     * @return what to do with it
     */
    public static Decision send(Smp smp, boolean isSwitch, int portNum) {
        if (!smp.isDirectedRoute()) {
            return Decision.forward(portNum);
        }
        int startLid = smp.direction() ? smp.drDlid : smp.drSlid;
        if (startLid == Smp.IB_LID_PERMISSIVE && handleDrSmpSend(smp, isSwitch, portNum) == SmiAction.DISCARD) {
            return Decision.discard();
        }
        if (checkLocalSmp(smp, true) == SmiAction.DISCARD && checkLocalReturningSmp(smp, true) == SmiAction.DISCARD) {
            return Decision.forward(portNum);
        }
        return Decision.handle();
    }
}
