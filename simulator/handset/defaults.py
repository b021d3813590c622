"""What a fresh virtual phone starts with: its settings provider, keyboards, system packages."""

from __future__ import annotations

ADB_IME = "com.android.adbkeyboard/.AdbIME"
LATIN_IME = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
SYSTEM_PACKAGES = [
    "android",
    "com.android.systemui",
    "com.android.providers.settings",
    "com.android.shell",
    "com.android.phone",
    "com.google.android.inputmethod.latin",
]


def default_settings() -> dict[str, dict[str, str]]:
    """The settings provider of a fresh phone (values as Android stores them: strings)."""
    return {
        "global": {
            "wifi_on": "1",
            "bluetooth_on": "1",
            "airplane_mode_on": "0",
            "mobile_data": "1",
            "zen_mode": "0",
            "low_power": "0",
            "adb_enabled": "1",
            "auto_time": "1",
            "device_name": "screenpilot virtual phone",
            "development_settings_enabled": "0",
            "animator_duration_scale": "1.0",
            "transition_animation_scale": "1.0",
            "window_animation_scale": "1.0",
            "stay_on_while_plugged_in": "0",
        },
        "system": {
            "screen_brightness": "102",
            "screen_brightness_mode": "0",
            "screen_off_timeout": "30000",
            "volume_music": "9",
            "volume_voice": "4",
            "volume_ring": "5",
            "volume_alarm": "6",
            "vibrate_when_ringing": "1",
            "haptic_feedback_enabled": "1",
            "accelerometer_rotation": "0",
            "font_scale": "1.0",
            "time_12_24": "12",
            "system_locales": "en-US",
            "status_bar_show_battery_percent": "0",
            "show_password": "1",
        },
        "secure": {
            "ui_night_mode": "1",
            "location_mode": "3",
            "lock_to_app_enabled": "0",
            "navigation_mode": "0",
            "notification_history_enabled": "0",
            "lock_screen_show_notifications": "1",
            "accessibility_display_inversion_enabled": "0",
            "android_id": "5ca1ab1e0ddba11",
            "default_input_method": ADB_IME,
            "enabled_input_methods": f"{LATIN_IME}:{ADB_IME}",
        },
    }
