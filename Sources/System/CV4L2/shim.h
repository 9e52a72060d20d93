#ifndef TENDER_CV4L2_SHIM_H
#define TENDER_CV4L2_SHIM_H
/* The few V4L2 ioctls zbar's video API does not expose. Written in C because the request
   numbers are function-like macros (_IOWR) and ioctl is variadic: Swift sees neither. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

/* The capture frame interval as a rate: *numerator / *denominator frames per second.
   Returns 0, or an errno (ENOTTY: the driver has no frame-rate control). */
static inline int tender_v4l2_frame_rate(int fd, unsigned *numerator, unsigned *denominator) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ioctl(fd, VIDIOC_G_PARM, &parm) < 0) return errno;
    /* A frame interval of t/s seconds is a rate of s/t frames a second. */
    *numerator = parm.parm.capture.timeperframe.denominator;
    *denominator = parm.parm.capture.timeperframe.numerator;
    return 0;
}

/* Asks for numerator/denominator frames per second. The driver picks the nearest rate it
   supports (read it back with tender_v4l2_frame_rate). Returns 0, ENOTSUP when the driver
   cannot change its rate, or the ioctl's errno. */
static inline int tender_v4l2_request_frame_rate(int fd, unsigned numerator, unsigned denominator) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ioctl(fd, VIDIOC_G_PARM, &parm) < 0) return errno;
    if (!(parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) return ENOTSUP;
    parm.parm.capture.timeperframe.numerator = denominator;
    parm.parm.capture.timeperframe.denominator = numerator;
    if (ioctl(fd, VIDIOC_S_PARM, &parm) < 0) return errno;
    return 0;
}
#endif
