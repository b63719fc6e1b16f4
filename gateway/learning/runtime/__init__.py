"""The learning queue at run time: the service a gateway process holds, the worker pool that leases
durable jobs, the chat path's bounded writes and the queue's size.
"""
