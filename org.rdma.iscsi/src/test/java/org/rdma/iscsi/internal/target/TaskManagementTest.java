package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;

/**
 * Task Management Function Request/Response (RFC 7143 11.5, 11.6; RFC 7144): iSCSI's codes to and
 * from the SPI, and what only iSCSI decides (tasks still waiting for their CmdSN, tasks not yet
 * arrived). The nexus is a fake that records what reaches it.
 */
class TaskManagementTest {
    final Harness h = new Harness();
    final FakeTpg fake = new FakeTpg();

    private static void tmf(Initiator i, int function, int itt, int rtt, int refCmdSn, long lun) {
        i.send(Opcode.TASK_MGMT_REQUEST, b -> b.immediate(true).function(function).itt(itt).referencedTaskTag(rtt)
                .refCmdSn(refCmdSn).cmdSn(i.cmdSn).lun(lun), null);
    }

    private static void tur(Initiator i, int itt, int cmdSn) {
        i.send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(cmdSn).finalBit(true).cdb(Cdb.testUnitReady(), 0, 6), null);
    }

    @Test
    void abortTaskOfASubmittedTaskGoesToTheCoreWithItsTagAndTheResponseIsMapped() {
        Initiator i = h.login(new Params(), fake);
        tur(i, 0x31, 1);
        assertEquals(List.of(0x31L), fake.submitted);
        tmf(i, 1, 0x90, 0x31, 1, Lun.encode(0));
        assertEquals(List.of(new FakeTpg.Tmr(TmfFunction.ABORT_TASK, Lun.encode(0), 0x90, 0x31)), fake.tmrs);
        // 11.6: F, Response 0 (function complete), ITT, StatSN, ExpCmdSN, MaxCmdSN.
        assertEquals("22800000 00000000 00000000 00000000 00000090 00000000 00000100 00000002 00000008 00000000"
                + " 00000000 00000000", Hex.words(i.next(Opcode.TASK_MGMT_RESPONSE).header()));
    }

    @Test
    void eachFunctionCodeMapsToItsSamFunctionAndEachResponseToItsCode() {
        Initiator i = h.login(new Params(), fake);
        int[][] cases = {{2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {9, 0}, {10, 0}, {11, 0}, {12, 0}};
        TmfFunction[] expected = {TmfFunction.ABORT_TASK_SET, TmfFunction.CLEAR_ACA, TmfFunction.CLEAR_TASK_SET,
            TmfFunction.LOGICAL_UNIT_RESET, TmfFunction.TARGET_RESET, TmfFunction.QUERY_TASK,
            TmfFunction.QUERY_TASK_SET, TmfFunction.I_T_NEXUS_RESET, TmfFunction.QUERY_ASYNCHRONOUS_EVENT};
        for (int n = 0; n < cases.length; n++) {
            tmf(i, cases[n][0], 0x100 + n, Bhs.RESERVED_TAG, 0, Lun.encode(0));
            assertEquals(expected[n], fake.tmrs.get(n).function());
            assertEquals(0, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response());
        }
        TmfResponse[] answers = {TmfResponse.FUNCTION_SUCCEEDED, TmfResponse.TASK_DOES_NOT_EXIST,
            TmfResponse.INCORRECT_LOGICAL_UNIT_NUMBER, TmfResponse.FUNCTION_NOT_SUPPORTED,
            TmfResponse.FUNCTION_REJECTED};
        int[] codes = {7, 1, 2, 5, 255};
        for (int n = 0; n < answers.length; n++) {
            fake.tmfResponse = answers[n];
            tmf(i, 9, 0x200 + n, 0x999, 0, Lun.encode(0));
            assertEquals(codes[n], i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response(), answers[n].toString());
        }
    }

    @Test
    void taskReassignAndUnknownFunctionsAreAnsweredWithoutTheCore() {
        Initiator i = h.login(new Params(), fake);
        tmf(i, 8, 0x50, 0x1, 0, 0);
        assertEquals(4, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response(), "reassignment not supported at ERL 0");
        tmf(i, 13, 0x51, 0x1, 0, 0);
        assertEquals(5, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response(), "function not supported");
        assertTrue(fake.tmrs.isEmpty());
    }

    @Test
    void abortTaskOfAnUnknownTaskDependsOnWhetherItsCmdSnIsStillToCome() {
        Initiator i = h.login(new Params(), fake);
        tur(i, 0x31, 1);
        // RefCmdSN 1 was received and the task is gone from iSCSI's view: task does not exist.
        tmf(i, 1, 0x90, 0x77, 0, Lun.encode(0));
        assertEquals(1, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response());
        // RefCmdSN 2 has not arrived: function complete, and the command is not run when it comes.
        tmf(i, 1, 0x91, 0x32, 2, Lun.encode(0));
        assertEquals(0, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response());
        tur(i, 0x32, 2);
        tur(i, 0x33, 3);
        assertEquals(List.of(0x31L, 0x33L), fake.submitted);
        assertTrue(fake.tmrs.isEmpty());
    }

    @Test
    void abortTaskOfATaskWaitingForItsCmdSnEndsItInIscsi() {
        Initiator i = h.login(new Params(), fake);
        tur(i, 0x42, 2); // waits for CmdSN 1
        tmf(i, 1, 0x92, 0x42, 2, Lun.encode(0));
        assertEquals(0, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response());
        tur(i, 0x41, 1);
        assertEquals(List.of(0x41L), fake.submitted, "the aborted task never reached the core");
        i.nothingMore();
        assertEquals(1, i.conn.session().tasks());
    }

    @Test
    void lunResetEndsTheTasksStillWaitingBeforeIt() {
        Initiator i = h.login(new Params(), fake);
        tur(i, 0x52, 2);
        tur(i, 0x53, 3);
        i.cmdSn = 4;
        tmf(i, 5, 0x93, Bhs.RESERVED_TAG, 0, Lun.encode(0));
        assertEquals(TmfFunction.LOGICAL_UNIT_RESET, fake.tmrs.get(0).function());
        i.next(Opcode.TASK_MGMT_RESPONSE);
        tur(i, 0x51, 1);
        assertEquals(List.of(0x51L), fake.submitted);
    }

    @Test
    void targetColdResetDropsTheConnectionsAfterItsResponse() {
        Initiator i = h.login(new Params(), fake);
        tmf(i, 7, 0x94, Bhs.RESERVED_TAG, 0, 0);
        assertEquals(TmfFunction.TARGET_RESET, fake.tmrs.get(0).function());
        assertEquals(0, i.next(Opcode.TASK_MGMT_RESPONSE).bhs().response());
        assertTrue(i.transport.closed);
    }
}
