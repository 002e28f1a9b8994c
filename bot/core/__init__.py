"""Transport-neutral bot logic: commands -> table service -> engines, events -> outgoing messages.

Nothing here imports a chat library; adapters feed `Command` and `Press` objects in and deliver the
`Outgoing` items that come back.
"""
