"""The parts of ``phone.VirtualPhone``, one layer per module, each building on the last.

``core`` (state, rendering, navigation) <- ``keys`` (text and key events) <- ``touch``
(touches and gestures) <- ``android`` (what Android's tools ask of the phone);
``defaults`` is the fresh phone's settings. ``simulator/phone.py`` assembles them.
"""
