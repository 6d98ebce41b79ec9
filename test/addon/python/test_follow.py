from renderdrop_blender import session


def test_progress_of_a_job_the_panel_no_longer_shows_is_ignored():
    session.state.__init__()
    session.state.job_id = "job-2"
    session._apply("progress", ("job-1", "rendering", 1, 10, 99))
    assert session.state.done == 0
    session._apply("progress", ("job-2", "rendering", 3, 10, 42))
    assert (session.state.done, session.state.total, session.state.seconds_left) == (3, 10, 42)
    session.state.phase = "rendering"
    assert session.status_text() == "Renderdrop: 3/10 frames, 42 s left"
