package org.rdma.verbs;

/** {@code struct ib_device_modify} with its mask bits ({@code ib_modify_device()}). */
public final class DeviceModify {
    /** {@code IB_DEVICE_MODIFY_SYS_IMAGE_GUID}. */
    public static final int SYS_IMAGE_GUID = 1;
    /** {@code IB_DEVICE_MODIFY_NODE_DESC}. */
    public static final int NODE_DESC = 1 << 1;

    /** {@code sys_image_guid}. */
    public long sysImageGuid;
    /** {@code node_desc} (at most 64 bytes). */
    public String nodeDesc = "";
}
