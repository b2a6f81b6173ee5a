package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.verbs.wire.DrSmp.SmiAction.DISCARD;
import static org.rdma.verbs.wire.DrSmp.SmiAction.HANDLE;

import org.junit.jupiter.api.Test;
import org.rdma.verbs.wire.DrSmp.Decision;
import org.rdma.verbs.wire.DrSmp.SmiForwardAction;
import org.rdma.verbs.wire.DrSmp.Verdict;

/**
 * Every branch of the directed-route SMI rules (IBTA vol. 1, 14.2.2; the kernel's smi.c, smi.h and
 * the SMI parts of mad.c), then complete trips of an SMP through a fabric, one of them reproducing
 * an SMP captured on a real fabric.
 */
class DrSmpTest {

    private static final boolean SWITCH = true;
    private static final boolean CA = false;
    private static final int PORTS = 36;

    /** A DR SMP with permissive DrSLID/DrDLID at the given point of its trip. */
    private static Smp dr(boolean returning, int hopPtr, int hopCnt) {
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1);
        s.setDirection(returning);
        s.hopPtr = hopPtr;
        s.hopCnt = hopCnt;
        return s;
    }

    private static Smp out(int hopPtr, int hopCnt) {
        return dr(false, hopPtr, hopCnt);
    }

    private static Smp back(int hopPtr, int hopCnt) {
        return dr(true, hopPtr, hopCnt);
    }

    private static Smp lidRoutedStart(Smp s) {
        s.drSlid = 0x0005;
        return s;
    }

    private static Smp lidRoutedEnd(Smp s) {
        s.drDlid = 0x0009;
        return s;
    }

    // ---------------------------------------------------------------- smi_handle_dr_smp_send

    @Test
    void sendRejectsHopCountsOf64AndMore() {
        // C14-6, both directions
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(out(0, 64), SWITCH, 1));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(back(0, 64), SWITCH, 1));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(out(0, 255), SWITCH, 1));
        Smp s = out(0, 63);
        s.initialPath[1] = 1;
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1));
    }

    @Test
    void sendOutgoingFromTheOriginator() {
        // C14-9:1: hop pointer 0 -> 1, leave through initial path [1]
        Smp s = out(0, 2);
        s.initialPath[1] = 3;
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 3));
        assertEquals(1, s.hopPtr);
        s = out(0, 2);
        s.initialPath[1] = 3;
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 4), "wrong port");
        assertEquals(1, s.hopPtr, "the pointer moves before the check, as in the kernel");
    }

    @Test
    void sendOutgoingAtAnIntermediateSwitch() {
        // C14-9:2
        Smp s = out(1, 3);
        s.initialPath[2] = 5;
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, SWITCH, 5));
        assertEquals(2, s.hopPtr);
        s = out(1, 3);
        s.initialPath[2] = 5;
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, SWITCH, 6));
        s = out(1, 3);
        s.initialPath[2] = 5;
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 5), "only switches relay");
        assertEquals(1, s.hopPtr);
    }

    @Test
    void sendOutgoingAtTheEndOfTheDirectedPart() {
        // C14-9:3: hop pointer = hop count
        Smp s = out(2, 2);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, SWITCH, 1));
        assertEquals(3, s.hopPtr);
        s = out(2, 2);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1), "DrDLID permissive");
        s = lidRoutedEnd(out(2, 2));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 1), "a CA cannot start a LID-routed part");
        assertEquals(3, s.hopPtr);
        s = lidRoutedEnd(out(2, 2));
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, SWITCH, 1));
        // hop count 0: the SM addresses its own node
        s = out(0, 0);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1));
        assertEquals(1, s.hopPtr);
    }

    @Test
    void sendOutgoingPastTheEnd() {
        // C14-9:4: hop pointer = hop count + 1 -> for the SMA/SM, unchanged
        Smp s = out(3, 2);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1));
        assertEquals(3, s.hopPtr);
        // C14-9:5: anything beyond
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(out(4, 2), SWITCH, 1));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(out(200, 2), SWITCH, 1));
    }

    @Test
    void sendReturningFromTheResponder() {
        // C14-13:1: hop pointer hop count + 1 -> hop count, leave through return path [hop count]
        Smp s = back(4, 3);
        s.returnPath[3] = 7;
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 7));
        assertEquals(3, s.hopPtr);
        s = back(4, 3);
        s.returnPath[3] = 7;
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 8));
        assertEquals(3, s.hopPtr);
        // with hop count 0 C14-13:1 does not apply: hop pointer 1 is the end of the directed part
        s = back(1, 0);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1));
        assertEquals(0, s.hopPtr);
    }

    @Test
    void sendReturningAtAnIntermediateSwitch() {
        // C14-13:2
        Smp s = back(2, 3);
        s.returnPath[1] = 9;
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, SWITCH, 9));
        assertEquals(1, s.hopPtr);
        s = back(3, 3);
        s.returnPath[2] = 9;
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, SWITCH, 10));
        s = back(2, 3);
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 0));
        assertEquals(2, s.hopPtr);
    }

    @Test
    void sendReturningAtTheEndOfTheDirectedPart() {
        // C14-13:3: hop pointer 1 -> 0
        Smp s = back(1, 3);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, SWITCH, 1));
        assertEquals(0, s.hopPtr);
        s = back(1, 3);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1), "DrSLID permissive");
        s = lidRoutedStart(back(1, 3));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(s, CA, 1), "SMPs for a LID-routed SM should not be here");
        assertEquals(0, s.hopPtr);
    }

    @Test
    void sendReturningAtOrPastTheSm() {
        // C14-13:4: hop pointer 0 -> should have gone to the SM
        Smp s = back(0, 3);
        assertEquals(HANDLE, DrSmp.handleDrSmpSend(s, CA, 1));
        assertEquals(0, s.hopPtr);
        // C14-13:5: unreasonable hop pointer
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(back(5, 3), SWITCH, 1));
        assertEquals(DISCARD, DrSmp.handleDrSmpSend(back(9, 3), SWITCH, 1));
    }

    // ---------------------------------------------------------------- smi_handle_dr_smp_recv

    @Test
    void recvRejectsHopCountsOf64AndMore() {
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(out(1, 64), SWITCH, 1, PORTS));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(back(1, 64), SWITCH, 1, PORTS));
    }

    @Test
    void recvOutgoingWithAnUnadvancedPointer() {
        // C14-9:1: the sender should have incremented the hop pointer
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(out(0, 2), SWITCH, 1, PORTS));
    }

    @Test
    void recvOutgoingAtAnIntermediateSwitch() {
        // C14-9:2: record the input port, check the next output port exists
        Smp s = out(1, 3);
        s.initialPath[2] = 36;
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, SWITCH, 4, PORTS));
        assertEquals(4, s.returnPort(1));
        assertEquals(1, s.hopPtr, "the pointer moves when sending");
        s = out(1, 3);
        s.initialPath[2] = 37;
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, SWITCH, 4, PORTS), "no port 37");
        assertEquals(4, s.returnPort(1));
        s = out(1, 3);
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, CA, 4, 2));
        assertEquals(0, s.returnPort(1), "a CA records nothing");
    }

    @Test
    void recvOutgoingAtTheEndOfTheDirectedPart() {
        // C14-9:3
        Smp s = out(2, 2);
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, CA, 2, 2), "DrDLID permissive");
        assertEquals(2, s.returnPort(2));
        s = lidRoutedEnd(out(2, 2));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, CA, 2, 2));
        assertEquals(2, s.returnPort(2), "recorded before the check");
        s = lidRoutedEnd(out(2, 2));
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, SWITCH, 2, PORTS));
        // hop count 0: nothing to record
        s = out(0, 0);
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, CA, 2, 2));
        assertEquals(0, s.returnPort(0));
    }

    @Test
    void recvOutgoingPastTheEnd() {
        // C14-9:4 and C14-9:5
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(out(3, 2), CA, 1, 2));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(out(4, 2), CA, 1, 2));
    }

    @Test
    void recvReturningAtTheResponder() {
        // C14-13:1
        Smp s = back(3, 2);
        s.returnPath[2] = 1;
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, CA, 1, 2));
        assertEquals(2, s.hopPtr);
        s = back(3, 2);
        s.returnPath[2] = 1;
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, CA, 2, 2));
    }

    @Test
    void recvReturningAtAnIntermediateSwitch() {
        // C14-13:2: check the next output port exists; the pointer moves when sending
        Smp s = back(2, 3);
        s.returnPath[1] = 36;
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, SWITCH, 5, PORTS));
        assertEquals(2, s.hopPtr);
        s = back(3, 3);
        s.returnPath[2] = 40;
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, SWITCH, 5, PORTS));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(back(2, 3), CA, 1, 2));
    }

    @Test
    void recvReturningAtTheEndOfTheDirectedPart() {
        // C14-13:3
        Smp s = back(1, 3);
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, CA, 1, 2), "for the SM");
        assertEquals(0, s.hopPtr, "given to the SM: pointer updated now");
        s = lidRoutedStart(back(1, 3));
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(s, SWITCH, 1, PORTS));
        assertEquals(1, s.hopPtr, "a switch continues LID routed; the pointer moves when sending");
        s = lidRoutedStart(back(1, 3));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(s, CA, 1, 2));
    }

    @Test
    void recvReturningAtOrPastTheSm() {
        // C14-13:4 and C14-13:5
        assertEquals(HANDLE, DrSmp.handleDrSmpRecv(back(0, 3), CA, 1, 2));
        assertEquals(DISCARD, DrSmp.handleDrSmpRecv(back(9, 3), CA, 1, 2));
    }

    @Test
    void pathsMustBeComplete() {
        Smp s = out(1, 3);
        s.returnPath = new byte[10];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DrSmp.handleDrSmpRecv(s, SWITCH, 1, PORTS));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        s.returnPath = null;
        assertThrows(IllegalArgumentException.class, () -> DrSmp.handleDrSmpSend(s, SWITCH, 1));
        Smp t = out(1, 3);
        t.initialPath = null;
        assertThrows(IllegalArgumentException.class, () -> DrSmp.getFwdPort(t));
    }

    // ---------------------------------------------------------------- smi_check_forward_dr_smp, smi_get_fwd_port

    @Test
    void checkForwardOutgoing() {
        assertEquals(SmiForwardAction.FORWARD, DrSmp.checkForwardDrSmp(out(1, 3)));        // C14-9:2
        assertEquals(SmiForwardAction.SEND, DrSmp.checkForwardDrSmp(out(3, 3)));           // C14-9:3, DrDLID permissive
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(lidRoutedEnd(out(3, 3))));
        assertEquals(SmiForwardAction.SEND, DrSmp.checkForwardDrSmp(out(4, 3)));           // C14-9:4
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(out(5, 3)));
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(out(0, 3)));
    }

    @Test
    void checkForwardReturning() {
        assertEquals(SmiForwardAction.FORWARD, DrSmp.checkForwardDrSmp(back(2, 3)));       // C14-13:2
        assertEquals(SmiForwardAction.FORWARD, DrSmp.checkForwardDrSmp(back(3, 3)));
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(back(1, 3)));         // C14-13:3, DrSLID permissive
        assertEquals(SmiForwardAction.SEND, DrSmp.checkForwardDrSmp(lidRoutedStart(back(1, 3))));
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(back(0, 3)));
        assertEquals(SmiForwardAction.LOCAL, DrSmp.checkForwardDrSmp(back(4, 3)));
    }

    @Test
    void forwardingPort() {
        Smp s = out(1, 3);
        s.initialPath[2] = 17;
        assertEquals(17, DrSmp.getFwdPort(s));
        s = back(3, 3);
        s.returnPath[2] = (byte) 200;
        assertEquals(200, DrSmp.getFwdPort(s), "ports are unsigned");
        assertThrows(IllegalArgumentException.class, () -> DrSmp.getFwdPort(out(63, 63)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DrSmp.getFwdPort(back(0, 3)));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
    }

    @Test
    void localChecks() {
        assertEquals(HANDLE, DrSmp.checkLocalSmp(out(3, 2), true));
        assertEquals(DISCARD, DrSmp.checkLocalSmp(out(3, 2), false), "no process_mad");
        assertEquals(DISCARD, DrSmp.checkLocalSmp(out(2, 2), true));
        assertEquals(DISCARD, DrSmp.checkLocalSmp(back(3, 2), true));
        assertEquals(HANDLE, DrSmp.checkLocalReturningSmp(back(0, 2), true));
        assertEquals(DISCARD, DrSmp.checkLocalReturningSmp(back(0, 2), false));
        assertEquals(DISCARD, DrSmp.checkLocalReturningSmp(back(1, 2), true));
        assertEquals(DISCARD, DrSmp.checkLocalReturningSmp(out(0, 2), true));
    }

    // ---------------------------------------------------------------- handle_ib_smi / handle_outgoing_dr_smp

    @Test
    void receiveDecisions() {
        // LID routed: no SMI processing
        Smp lr = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1);
        lr.hopPtr = 7;
        assertEquals(Decision.handle(), DrSmp.receive(lr, CA, 1, 2));
        assertEquals(7, lr.hopPtr);
        // smi_handle_dr_smp_recv discards
        assertEquals(Decision.discard(), DrSmp.receive(out(0, 2), SWITCH, 1, PORTS));
        // LOCAL: the response reached the SM
        Smp s = back(1, 2);
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 2));
        assertEquals(0, s.hopPtr);
        // SEND, then for the local SMA: the target of a request
        s = out(2, 2);
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 2));
        assertEquals(3, s.hopPtr);
        assertEquals(1, s.returnPort(2));
        // SEND, then not local: a switch ending the directed return part toward a LID-routed SM
        s = lidRoutedStart(back(1, 2));
        assertEquals(Decision.discard(), DrSmp.receive(s, SWITCH, 1, PORTS));
        assertEquals(0, s.hopPtr);
        // FORWARD at a switch: out of the next port of the initial path
        s = out(1, 2);
        s.initialPath[2] = 9;
        Decision d = DrSmp.receive(s, SWITCH, 4, PORTS);
        assertEquals(Decision.forward(9), d);
        assertEquals(Verdict.FORWARD, d.verdict());
        assertEquals(9, d.port());
        assertEquals(1, s.hopPtr, "advanced by send()");
    }

    @Test
    void sendDecisions() {
        // LID routed: on the wire unchanged
        Smp lr = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1);
        assertEquals(Decision.forward(2), DrSmp.send(lr, CA, 2));
        // invalid directed route: the first hop is not the port used
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1, 2, 5);
        assertEquals(Decision.discard(), DrSmp.send(s, CA, 1));
        // the SM starts a directed route
        s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1, 2, 5);
        assertEquals(Decision.forward(2), DrSmp.send(s, CA, 2));
        assertEquals(1, s.hopPtr);
        // a LID-routed first part (DrSLID not permissive): the pointer stays until the switch
        s = lidRoutedStart(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1, 2, 5));
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));
        assertEquals(0, s.hopPtr);
        // hop count 0: the SM asks its own node's SMA
        s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 1);
        assertEquals(Decision.handle(), DrSmp.send(s, CA, 1));
        assertEquals(1, s.hopPtr);
        // ... and that SMA's response goes straight back to the local SM
        s.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        s.setDirection(true);
        assertEquals(Decision.handle(), DrSmp.send(s, CA, 1));
        assertEquals(0, s.hopPtr);
        // a responder at the far end puts the response on the wire
        s = back(3, 2);
        s.returnPath[2] = 1;
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));
        assertEquals(2, s.hopPtr);
    }

    // ---------------------------------------------------------------- whole trips

    /**
     * The SM (a CA, port 1) asks the CA behind two switches: out of SM port 1 into switch A port 2,
     * out of A port 3 into switch B port 7, out of B port 5 into the target's port 1; and back.
     */
    @Test
    void requestAndResponseThroughTwoSwitches() {
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 0x77, 1, 3, 5);

        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));            // SM
        assertEquals(Decision.forward(3), DrSmp.receive(s, SWITCH, 2, PORTS)); // switch A
        assertEquals(Decision.forward(3), DrSmp.send(s, SWITCH, 3));
        assertEquals(Decision.forward(5), DrSmp.receive(s, SWITCH, 7, PORTS)); // switch B
        assertEquals(Decision.forward(5), DrSmp.send(s, SWITCH, 5));
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 2));        // target: for its SMA
        assertEquals(4, s.hopPtr);
        assertArrayEquals(new byte[] {0, 2, 7, 1, 0}, java.util.Arrays.copyOf(s.returnPath, 5));

        // the SMA answers
        s.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        s.setDirection(true);
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));            // target
        assertEquals(Decision.forward(7), DrSmp.receive(s, SWITCH, 5, PORTS)); // switch B
        assertEquals(Decision.forward(7), DrSmp.send(s, SWITCH, 7));
        assertEquals(Decision.forward(2), DrSmp.receive(s, SWITCH, 3, PORTS)); // switch A
        assertEquals(Decision.forward(2), DrSmp.send(s, SWITCH, 2));
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 2));        // SM
        assertEquals(0, s.hopPtr);
    }

    @Test
    void aWrongTurnIsDropped() {
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 0x77, 1, 40, 5);
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));
        assertEquals(Decision.discard(), DrSmp.receive(s, SWITCH, 2, PORTS), "the switch has no port 40");
        Smp t = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 0x77, 1, 3, 5);
        DrSmp.send(t, CA, 1);
        DrSmp.receive(t, SWITCH, 2, PORTS);
        assertEquals(Decision.discard(), DrSmp.send(t, SWITCH, 4), "a switch must use the port of the path");
    }

    @Test
    void reproducesTheCapturedPortInfoTrip() {
        // The captured response (MadHdrSmpTest.REAL_DR_PORT_INFO_RESP) went out of the SM's port 1
        // and a 64-port switch's port 54 to the target's port 1, entering the switch on port 53.
        byte[] captured = Hex.bytes(MadHdrSmpTest.REAL_DR_PORT_INFO_RESP);
        Smp real = new Smp().unpack(captured, 0);

        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_PORT_INFO, 0, real.tid, 1, 54);
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));
        assertEquals(Decision.forward(54), DrSmp.receive(s, SWITCH, 53, 64));
        assertEquals(Decision.forward(54), DrSmp.send(s, SWITCH, 54));
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 1));
        // the target's SMA fills in the response
        s.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        s.setDirection(true);
        s.data = real.data.clone();
        assertEquals(Decision.forward(1), DrSmp.send(s, CA, 1));
        assertEquals(Decision.forward(53), DrSmp.receive(s, SWITCH, 54, 64));
        assertEquals(Decision.forward(53), DrSmp.send(s, SWITCH, 53));
        assertEquals(Decision.handle(), DrSmp.receive(s, CA, 1, 1));

        byte[] ours = new byte[256];
        s.pack(ours, 0);
        assertArrayEquals(captured, ours, "hop pointer, paths and header equal the capture's");
    }
}
