/* exit_deadline.h: bounds the worker's close after its loop. zmq_ctx_term
 * waits for libzmq's I/O thread, and that thread may sit in a blocking DNS
 * lookup of the coordinator's name for many seconds once the name is gone
 * (Docker's resolver forwards it to an upstream that an internal network
 * cannot reach; each try waits 5 s). So a detached thread ends the process
 * with the loop's exit status after a deadline: a hand-back that has not left
 * by then has no one to go to (the coordinator re-queues those tasks when
 * their lease expires). */
#pragma once

/* Starts the thread: after ms milliseconds it prints that the worker `name`
 * gave up closing, and _exits with exit_code. */
void exit_deadline_arm(int exit_code, const char *name, int ms);
