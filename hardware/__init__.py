"""The table's devices on the Pi's GPIO, and nothing else: gpiozero buttons that emit
:class:`~engine.presses.Press` values (``devices.GpioButtons``, with a pure debouncer in
``debounce``), seat LEDs and a buzzer that show a mode — on, off, blink — an error flash and
a beep (``devices.SeatLights``), and the pin map (``pins``).

Like gpiozero's own devices they know nothing of the application: nothing here imports
``table_app``. ``table_app.inputs`` joins them to the table (presses to the service without
waiting, the lights following its notices); a heartbeat, where one is wanted, is passed in
as a plain callable.
"""
