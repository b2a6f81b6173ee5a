package org.rdma.itest.support;

import java.util.function.ToIntFunction;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;

/**
 * An {@link IbClient} that writes each callback for the devices of one driver into a shared
 * {@link CallbackLog}: {@code add NAME DEV} and {@code remove NAME DEV DATA}. On a successful add
 * it stores {@code cd:NAME:DEV} as its client data and checks it reads back; devices of other
 * drivers (other tests) are accepted silently and not logged.
 */
public class RecordingClient implements IbClient {
    private final String name;
    private final String driverId;
    private final CallbackLog log;
    private volatile ToIntFunction<IbDevice> addResult = d -> 0;

    public RecordingClient(String name, String driverId, CallbackLog log) {
        this.name = name;
        this.driverId = driverId;
        this.log = log;
    }

    /** What {@link #add} returns for a device (0 or a negative errno). */
    public RecordingClient addResult(ToIntFunction<IbDevice> result) {
        this.addResult = result;
        return this;
    }

    /** The client data this client stores for {@code device}. */
    public static String dataFor(String client, String device) {
        return "cd:" + client + ":" + device;
    }

    protected boolean inScope(IbDevice device) {
        return driverId == null || driverId.equals(device.driverId());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int add(IbDevice device) {
        if (!inScope(device)) {
            return 0;
        }
        log.add("add " + name + " " + device.name());
        int r = addResult.applyAsInt(device);
        if (r == 0) {
            String data = dataFor(name, device.name());
            device.setClientData(this, data);
            Object back = device.getClientData(this);
            if (!data.equals(back)) {
                log.add("BAD getClientData in add " + name + " " + device.name() + ": " + back);
            }
        }
        return r;
    }

    @Override
    public void remove(IbDevice device, Object clientData) {
        if (!inScope(device)) {
            return;
        }
        log.add("remove " + name + " " + device.name() + " " + clientData);
    }

    @Override
    public String toString() {
        return "RecordingClient[" + name + "]";
    }
}
