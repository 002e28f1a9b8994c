"""Platform adapters (Discord, Telegram, console): each only translates platform <-> core.

An adapter never decides a rule and never moves a chip; it converts platform updates into core
commands and delivers the core's outgoing messages on its platform.
"""
