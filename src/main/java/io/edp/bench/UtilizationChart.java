package io.edp.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A PNG line chart of per-worker utilization over time, with the TLB threshold and the moments queues moved:
 * the picture of a rebalance. Drawn with java.awt in headless mode, no charting dependency.
 */
final class UtilizationChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;
    private static final int LEFT = 60;
    private static final int RIGHT = 130;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;
    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    /** One sample: seconds since start and each worker's utilization (0..1). */
    record Point(double seconds, double[] utilization) {
    }

    private UtilizationChart() {
    }

    /** Draws the chart; the balancer runs from {@code balancingFrom} seconds, queues moved at {@code moveSeconds}. */
    static void write(Path png, String title, List<String> workers, List<Point> points, double threshold,
                      double balancingFrom, List<Double> moveSeconds) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        double span = Math.max(1e-9, points.getLast().seconds());
        double top = 1.0;
        for (Point point : points) {
            for (double u : point.utilization()) {
                top = Math.max(top, Math.ceil(u * 10) / 10);
            }
        }
        Frame frame = new Frame(span, top);

        g.setColor(new Color(0xf0f0f0));
        g.fillRect(frame.x(balancingFrom), TOP, frame.x(span) - frame.x(balancingFrom), frame.plotHeight());
        g.setColor(Color.BLACK);
        g.drawString(title, LEFT, 18);
        g.drawString("TLB on", frame.x(balancingFrom) + 4, TOP + 14);
        g.drawRect(LEFT, TOP, frame.plotWidth(), frame.plotHeight());
        for (double u = 0; u <= top + 1e-9; u += 0.2) {
            g.drawString(String.format("%3.0f %%", u * 100), 10, frame.y(u) + 4);
        }
        g.drawString("seconds", LEFT + frame.plotWidth() / 2, HEIGHT - 10);
        for (int s = 0; s <= (int) span; s += Math.max(1, (int) span / 10)) {
            g.drawString(Integer.toString(s), frame.x(s) - 4, TOP + frame.plotHeight() + 15);
        }

        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[]{6, 4}, 0));
        g.drawLine(LEFT, frame.y(threshold), LEFT + frame.plotWidth(), frame.y(threshold));
        g.drawString("threshold", LEFT + frame.plotWidth() + 5, frame.y(threshold) + 4);
        for (double move : moveSeconds) {
            g.drawLine(frame.x(move), TOP, frame.x(move), TOP + frame.plotHeight());
            g.drawString("move", frame.x(move) + 4, TOP + 28);
        }

        g.setStroke(new BasicStroke(2));
        for (int w = 0; w < workers.size(); w++) {
            g.setColor(PALETTE[w % PALETTE.length]);
            for (int i = 1; i < points.size(); i++) {
                Point a = points.get(i - 1);
                Point b = points.get(i);
                g.drawLine(frame.x(a.seconds()), frame.y(a.utilization()[w]),
                        frame.x(b.seconds()), frame.y(b.utilization()[w]));
            }
            g.drawString(workers.get(w), LEFT + frame.plotWidth() + 5, TOP + 40 + 16 * w);
        }
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private record Frame(double span, double top) {
        int plotWidth() {
            return WIDTH - LEFT - RIGHT;
        }

        int plotHeight() {
            return HEIGHT - TOP - BOTTOM;
        }

        int x(double seconds) {
            return LEFT + (int) Math.round(seconds / span * plotWidth());
        }

        int y(double utilization) {
            return TOP + plotHeight() - (int) Math.round(utilization / top * plotHeight());
        }
    }
}
